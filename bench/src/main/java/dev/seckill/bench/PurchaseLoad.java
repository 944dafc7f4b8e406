package dev.seckill.bench;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * A closed-loop purchase load through an edge, for the tests that measure the system under load (issue 18's
 * admission): {@code connections} connections of the bench's load client, each request a purchase of one sale by
 * the next of {@code users} signed-in users, each user from its own address (X-Forwarded-For), for a given length.
 * Answers are counted and timed by status, so the latency of what the service answered can be told from that of
 * what the edge refused.
 */
public final class PurchaseLoad {

    /** Percentiles of one status's answers, in milliseconds. */
    public record Latency(long count, double p50Ms, double p99Ms, double maxMs) {

        static Latency of(Histogram micros) {
            return new Latency(micros.getTotalCount(), micros.getValueAtPercentile(50) / 1000.0,
                    micros.getValueAtPercentile(99) / 1000.0, micros.getMaxValue() / 1000.0);
        }
    }

    /** Answers by status, from the first request to the last answer; status 0: none came. */
    public record Result(long answers, double seconds, Map<Integer, Long> byStatus, Map<Integer, Latency> byStatusLatency) {

        public double rps() {
            return answers / seconds;
        }

        public long count(int status) {
            return byStatus.getOrDefault(status, 0L);
        }
    }

    private PurchaseLoad() {
    }

    public static Result run(int edgePort, long saleId, String tokenSecret, long firstUser, int users, int connections,
                             Duration length) throws IOException {
        Users u = new Users(tokenSecret, firstUser, users);
        long t0 = System.nanoTime();
        Steady steady = new Steady(i -> new LoadClient.Request(u.purchase(i % users, saleId, edgePort), null), t0,
                t0 + length.toNanos(), null);
        LoadClient.run(new InetSocketAddress("127.0.0.1", edgePort), connections, steady,
                t0 + length.plusSeconds(30).toNanos(), Duration.ofSeconds(30));
        Measured m = steady.result("purchases");
        Map<Integer, Long> byStatus = new TreeMap<>();
        Map<Integer, Latency> latency = new TreeMap<>();
        m.byStatus().forEach((status, n) -> {
            int code = Integer.parseInt(status);
            byStatus.put(code, n);
            latency.put(code, Latency.of(steady.histogram(code)));
        });
        return new Result(m.requests(), m.seconds(), byStatus, latency);
    }
}
