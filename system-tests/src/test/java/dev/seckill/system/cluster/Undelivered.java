package dev.seckill.system.cluster;

import dev.seckill.testkit.ClusterStack;
import dev.seckill.testkit.HttpJson;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Requests the layer in front of a node could deliver to none of that node's peers, so it answered 503 itself: the
 * count that shows whether the layer sends around a dead node. Kept apart from a live node's own 503s (a service
 * under load refusing a reservation its replica did not confirm in time is a correct answer, not a routing failure).
 */
final class Undelivered {

    /** The edge's counter of nginx's own upstream failures: 502 (refused or closed), 503 (no service left). */
    private static final Pattern EDGE_ERRORS =
            Pattern.compile("seckill_edge_upstream_errors_total\\{status=\"50[23]\"} ([0-9]+)");

    private Undelivered() {
    }

    /** By the edges: purchases and reads no service could take. A service that is slow (504) is not counted. */
    static LongSupplier byEdges(ClusterStack cluster) {
        HttpJson http = new HttpJson();
        return () -> cluster.nodes("edge").stream().mapToLong(edge -> {
            Matcher m = EDGE_ERRORS.matcher(http.get(cluster.url(edge) + "/edge/metrics").body());
            long n = 0;
            while (m.find()) {
                n += Long.parseLong(m.group(1));
            }
            return n;
        }).sum();
    }

    /** By the load balancer: one line of its unavailable.log for each request no edge took. */
    static LongSupplier byLoadBalancer(ClusterStack cluster) {
        Path log = cluster.runDir().resolve("lb/logs/unavailable.log");
        return () -> {
            try {
                if (!Files.exists(log)) {
                    return 0;
                }
                try (var lines = Files.lines(log)) {
                    return lines.count();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("failed to read " + log, e);
            }
        };
    }
}
