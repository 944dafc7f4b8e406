package dev.seckill.system.security;

import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Probe suite against the running stack's edge, with the stack's real admin token and a real sale: what
 * the edge answers, and that no admin stats, metrics or health details ever come back on the public port.
 */
class StackProbeIT {

    private final Stack stack = Stack.get();
    private final HttpJson http = new HttpJson();

    @Test
    void noProbeGetsAnInternalAnswerThroughThePublicEdge() {
        long sale = createSale();
        // The token is real: the same request on the internal listener is answered, so a leak would show.
        HttpJson.Response direct = http.get(stack.adminUrl() + "/admin/sales/" + sale + "/stats",
                "Authorization", HttpJson.bearer(stack.adminToken()));
        assertEquals(200, direct.status(), direct.body());
        assertTrue(direct.body().contains("stockTotal"), direct.body());

        int edgePort = URI.create(stack.edgeUrl()).getPort();
        for (EdgeProbes.Probe probe : EdgeProbes.all(sale)) {
            EdgeProbes.send(edgePort, probe, stack.adminToken());
        }
    }

    private long createSale() {
        Instant now = Instant.now();
        return new AdminSales(stack, http).sale("probes-").priceCents(100).stock(5).startsAt(now.plusSeconds(3600))
                .endsAt(now.plusSeconds(7200)).create();
    }
}
