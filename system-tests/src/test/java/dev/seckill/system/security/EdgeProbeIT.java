package dev.seckill.system.security;

import dev.seckill.system.edge.EdgeFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Probe suite against an edge in front of a stub service that records every request: each probe gets
 * its refusal from the edge, no internal body comes back, and the service sees none of them.
 */
class EdgeProbeIT {

    private static final long SALE = 1;
    private static final String ADMIN_LOOKING_TOKEN = "admin-token-0123456789abcdef0123456789";

    @RegisterExtension
    static final EdgeFixture fixture = EdgeFixture.of("probes");

    @Test
    void everyProbeIsRefusedAtTheEdgeAndNoneReachesTheService() {
        for (EdgeProbes.Probe probe : EdgeProbes.all(SALE)) {
            EdgeProbes.send(fixture.edge().port(), probe, ADMIN_LOOKING_TOKEN);
            assertEquals(0, fixture.upstream().hits(h -> true), "the service got " + probe);
        }
    }
}
