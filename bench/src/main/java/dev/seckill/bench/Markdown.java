package dev.seckill.bench;

import dev.seckill.bench.writer.WriterBenchmark;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** report.md: the same numbers as report.json, for people; bench/README.md explains each one. */
final class Markdown {

    private final Report r;
    private final StringBuilder s = new StringBuilder();

    Markdown(Report r) {
        this.r = r;
    }

    String render() {
        Machine m = r.machine();
        line("# Seckill bench: a flash sale under load");
        line("");
        line(f("%s · %s, %d cores, %,d MB, %s, kernel %s · %s · load average before %s, after %s", m.date(), m.cpu(),
                m.cores(), m.memoryMb(), m.os(), m.kernel(), m.java(), m.loadAverageBefore(), m.loadAverageAfter()));
        line("");
        line("Scenario: " + r.scenario().entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", ")) + ".");
        line("");
        long met = r.goals().stream().filter(Report.Goal::met).count();
        boolean invariants = r.invariants().stream().allMatch(Report.Check::ok);
        line(f("**Verdict: %s; %d of %d targets met.**", invariants ? "every invariant holds" : "INVARIANTS VIOLATED",
                met, r.goals().size()));
        goals();
        checks();
        flashSale();
        ceilings();
        s.append('\n').append(Memory.section(r.memory()).markdown());
        s.append('\n').append(CpuWindow.section(r.cpu()).markdown());
        return s.toString();
    }

    private void goals() {
        line("");
        line("## Targets");
        line("");
        line("| target | measured | wanted | met |");
        line("|---|---|---|---|");
        for (Report.Goal g : r.goals()) {
            line(f("| %s | %s | %s | %s |", g.name(), g.measured(), g.target(), g.met() ? "yes" : "**no**"));
        }
    }

    private void checks() {
        line("");
        line("## Invariants, read from MySQL and Redis after the writer caught up");
        line("");
        line("| sale | id | stock | 202 answers | DB orders | DB stock | Redis remaining | Redis buyers | oversold | duplicates | lost | holds |");
        line("|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (Report.Check c : r.invariants()) {
            line(f("| %s | %d | %,d | %,d | %,d | %,d | %s | %,d | %d | %d | %d | %s |", c.sale(), c.saleId(),
                    c.stockTotal(), c.accepted(), c.dbOrders(), c.dbStock(),
                    c.redisRemaining() == null ? "none" : f("%,d", c.redisRemaining()), c.redisBuyers(),
                    c.oversold(), c.duplicates(), c.lost(), c.ok() ? "yes" : "**no**: " + String.join("; ", c.violations())));
        }
    }

    private void flashSale() {
        FlashSaleNumbers n = r.flashSale();
        Measured.Latency l = n.latency();
        line("");
        line("## The flash sale");
        line("");
        line("| | |");
        line("|---|---|");
        line(f("| answers | %,d in %.2f s: **%,.0f req/s** |", n.requests(), n.seconds(), n.rps()));
        line(f("| latency (all answers) | p50 %.2f ms · p90 %.2f ms · **p99 %.2f ms** · max %.2f ms |", l.p50(), l.p90(),
                l.p99(), l.max()));
        if (n.sellOutAt() != null) {
            Measured.Latency b = n.latencyUntilSellOut();
            line(f("| time to sell out | **%.3f s**: the last 202 reached its buyer (the stock had run out in Redis by "
                    + "%s s, the first SOLD_OUT answer) |", n.sellOutAt(),
                    n.firstSoldOutAt() == null ? "-" : f("%.3f", n.firstSoldOutAt())));
            line(f("| clicks sent before the sell-out | %,d (%,.0f req/s) · p50 %.2f ms · p99 %.2f ms |",
                    n.requestsUntilSellOut(), n.rpsUntilSellOut(), b.p50(), b.p99()));
            line(f("| clicks sent after the sell-out | %,d (%,.0f req/s) |", n.requestsAfterSellOut(), n.rpsAfterSellOut()));
            line(f("| answered by the edge after the sell-out | **%.1f %%** (%,d short-circuits / %,d clicks) |",
                    100 * n.edgeShareAfterSellOut(), n.edgeShortCircuits(), n.requestsAfterSellOut()));
            Ceilings.Result c = r.ceilingResult();
            if (c != null && c.best().containsKey(Ceilings.SHORT_CIRCUIT_CLIENT)) {
                double ceiling = c.best().get(Ceilings.SHORT_CIRCUIT_CLIENT).rps();
                line(f("| the flood after the sell-out against the short-circuit ceiling of the same client | %.2f x (%,.0f vs %,.0f req/s) |",
                        n.rpsAfterSellOut() / ceiling, n.rpsAfterSellOut(), ceiling));
            }
        } else {
            line(f("| time to sell out | not sold out: %,d of %,d units taken |", n.accepted(), n.stock()));
        }
        line(f("| accepted (202) / distinct winners | %,d / %,d of %,d units |", n.accepted(), n.winners(), n.stock()));
        line(f("| refused by the edge's per-IP limit (429) | %,d |", n.edgeRateLimited()));
        line(f("| writer drain time | %s |", n.drainSeconds() == null ? "**did not drain within 120 s**"
                : f("**%.2f s** from the last 202 until every accepted order was in MySQL and the lag 0 (at %.2f s)",
                        n.drainSeconds(), n.drainedAt())));
        line("");
        line("| outcome | answers | share |");
        line("|---|---|---|");
        for (Map.Entry<String, Long> e : n.outcomes().entrySet()) {
            line(f("| %s | %,d | %.2f %% |", e.getKey(), e.getValue(), 100.0 * e.getValue() / Math.max(1, n.requests())));
        }
        line("");
        line("![answers per second by outcome](" + Report.THROUGHPUT_PNG + ")");
        line("");
        line("![latency percentiles over time](" + Report.LATENCY_PNG + ")");
    }

    private void ceilings() {
        Ceilings.Result c = r.ceilingResult();
        if (c == null) {
            return;
        }
        line("");
        line("## Ceilings, measured in the same run");
        line("");
        line(f("Best of %d interleaved rounds of %d s at %s connections (latency of that round); ratios below. The "
                        + "trivial proxied route is GET %s.", r.scenario().get("ceilingRounds"), r.scenario().get("ceilingSecondsPerRound"),
                r.scenario().get("connections"), c.trivialRoute()));
        line("");
        line("| what | generator | best req/s | p50 ms | p90 ms | p99 ms | max ms | every round (req/s) | answers of the best round | mean ms in the service's Redis script / Kafka send |");
        line("|---|---|---|---|---|---|---|---|---|---|");
        for (Measured m : c.best().values()) {
            String rounds = c.rounds().stream().filter(x -> x.name().equals(m.name()))
                    .map(x -> f("%,.0f", x.rps())).collect(Collectors.joining(" · "));
            Measured.Latency l = m.latency();
            String in = m.inService() == null ? "" : f("%.1f / %.1f", m.inService().get("redis_scriptMeanMs"),
                    m.inService().get("kafka_sendMeanMs"));
            line(f("| %s | %s | **%,.0f** | %.2f | %.2f | %.2f | %.2f | %s | %s | %s |", m.name(), m.generator(), m.rps(),
                    l.p50(), l.p90(), l.p99(), l.max(), rounds, m.byKind(), in));
        }
        for (Measured m : c.redis()) {
            Measured.Latency l = m.latency();
            line(f("| %s | %s, -c 50 | **%,.0f** | %.2f | - | %.2f | %.2f | one run of %,d | %s | |", m.name(),
                    m.generator(), m.rps(), l.p50(), l.p99(), l.max(), m.requests(), m.byKind()));
        }
        WriterBenchmark.Result w = c.writer();
        line("");
        line(f("Batch writer (WriterBenchmark, %d orders in batches of %d): **%,.0f orders/s** batched against %,.0f "
                        + "orders/s row-at-a-time: **%.1f x** (consistent: %s).", w.orders(), w.batchSize(),
                w.batchedOrdersPerSec(), w.rowAtATimeOrdersPerSec(), w.ratio(), w.consistent()));
        line("");
        line("Ratios, the median of the rounds' ratios (the two sides of a round run back to back): "
                + r.ratios().stream().map(x -> f("%s **%.2f** (rounds %s; of the best rounds %.2f)", x.name(), x.median(),
                        x.rounds(), x.ofBest())).collect(Collectors.joining(" · ")) + ".");
    }

    private void line(String text) {
        s.append(text).append('\n');
    }

    private static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }
}
