package dev.seckill.bench;

import dev.seckill.testkit.Stack;
import org.HdrHistogram.Histogram;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The large sale, as shoppers meet it: {@value #STOCK} units and {@value #BUYERS} distinct buyers who click as the
 * sale page does (a 429 or 503 waits out its Retry-After, SOLD_OUT stops; {@value #CLICKS} clicks at most), over
 * the run's connections, through the edge with its settings as they are; then a new sale of the same size straight
 * to the service's port, so the edge's share is visible. Each run: units sold per second (202s over the time to the
 * last one), time to sell out, every answer by kind, the CPU each component used per accepted order, the invariants.
 */
final class LargeSale {

    static final int STOCK = 100_000;
    static final int BUYERS = 200_000;
    static final int CLICKS = 10;
    static final String VIA_EDGE = "through the edge";
    static final String STRAIGHT = "straight to the service";

    /**
     * @param sellOutSeconds from the first click to the last 202, when every unit was sold (null when not)
     * @param unitsPerSecond 202s per second until the sell-out (until the run's end when it did not sell out)
     */
    record Run(String route, long saleId, int connections, long answers, long accepted, Double sellOutSeconds,
               double unitsPerSecond, double seconds, Map<String, Long> byKind, Measured.Latency latency,
               CpuWindow.PerUnit cpu, int reconciled, Invariants.Report invariants) {
    }

    private LargeSale() {
    }

    static Run run(Stack stack, Admin admin, Sampler sampler, Users users, String route, int port, int connections,
                   Duration max) throws Exception {
        long sale = admin.createSale("bench-large-sale-" + (port == stack.edgePort() ? "edge" : "service") + "-"
                + System.currentTimeMillis(), STOCK);
        Bench.say("large sale " + sale + " (" + route + "): " + STOCK + " units, " + users.size() + " buyers x up to "
                + CLICKS + " clicks, " + connections + " connections");
        long t0 = System.nanoTime();
        Crowd crowd = new Crowd(users, sale, port, CLICKS, t0).likeThePage();
        sampler.mark("large sale, " + route);
        CpuWindow window = CpuWindow.open(sampler);
        long start = window.from() - t0;
        LoadClient.run(new InetSocketAddress("127.0.0.1", port), connections, crowd,
                window.from() + max.toNanos(), Duration.ofSeconds(30));
        List<Attempt> attempts = crowd.attempts();
        long accepted = attempts.stream().filter(Attempt::accepted).count();
        CpuWindow.PerUnit cpu = window.close("large sale, " + route, accepted);
        double seconds = cpu.seconds();
        long lastAccepted = attempts.stream().filter(Attempt::accepted)
                .mapToLong(a -> a.startNanos() + a.latencyNanos()).max().orElse(start) - start;
        Double sellOut = accepted >= STOCK ? lastAccepted / 1e9 : null;
        double unitsPerSecond = accepted / (sellOut != null ? sellOut : seconds);
        Bench.say(String.format(java.util.Locale.ROOT, "large sale %d (%s): %,d answers, %,d accepted, %,.0f units/s;"
                + " waiting for the writer", sale, route, attempts.size(), accepted, unitsPerSecond));
        Settled settled = Settled.of(stack, admin, "large sale", sale, attempts);
        return new Run(route, sale, connections, attempts.size(), accepted, sellOut, Report.round(unitsPerSecond),
                seconds, byKind(attempts), latency(attempts), cpu, settled.reconciled(), settled.invariants());
    }

    static Map<String, Long> byKind(List<Attempt> attempts) {
        Map<String, Long> m = new TreeMap<>();
        for (Attempt a : attempts) {
            m.merge(a.kind(), 1L, Long::sum);
        }
        return m;
    }

    private static Measured.Latency latency(List<Attempt> attempts) {
        Histogram h = new Histogram(60_000_000L, 3);
        for (Attempt a : attempts) {
            h.recordValue(Math.min(h.getHighestTrackableValue(), Math.max(1, a.latencyNanos() / 1000)));
        }
        return Measured.Latency.of(h);
    }

    /** The run through the edge over the run straight to the service, units per second; null without both. */
    static Double edgeShare(List<Run> runs) {
        Run edge = find(runs, VIA_EDGE);
        Run straight = find(runs, STRAIGHT);
        return edge == null || straight == null || straight.unitsPerSecond() == 0 ? null
                : edge.unitsPerSecond() / straight.unitsPerSecond();
    }

    static Run find(List<Run> runs, String route) {
        return runs.stream().filter(r -> r.route().equals(route)).findFirst().orElse(null);
    }
}
