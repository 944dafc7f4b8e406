package dev.seckill.bench;

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
        floods();
        payments();
        memory();
        cpu();
        if (r.profile() != null) {
            s.append(ProfileMarkdown.render(r.profile()));
        }
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

    /** The payment behaviour (issue 14), when the run had one. */
    private void payments() {
        Report.Payments p = r.payments();
        if (p == null) {
            return;
        }
        PaymentRun.Result s = p.sale();
        line("");
        line("## Payments: winners pay or let the window lapse, returned units sold again");
        line("");
        line(f("Sale %d: %.0f %% of the winners pay within a %d s window; the others let it lapse. Once every order "
                + "was PAID or EXPIRED, the returned units went on sale to %d new shoppers per unit.", s.saleId(),
                100 * s.payRatio(), s.payWindowSeconds(), PaymentRun.SHOPPERS_PER_UNIT));
        line("");
        line("| wave | shoppers | units on sale | 202 answers | payments |");
        line("|---|---|---|---|---|");
        for (PaymentRun.Wave w : s.waves()) {
            line(f("| %d | %,d | %,d | %,d | %s |", w.wave(), w.shoppers(), w.unitsOnSale(), w.accepted(),
                    w.payments()));
        }
        line("");
        line(f("**%,d units came back from lapsed orders; %,d were sold again.** At the end: %,d paid, %,d expired, "
                + "%s left in Redis.", s.returned(), s.resold(), s.settled().dbPaid(), s.settled().dbExpired(),
                s.settled().redisRemaining()));
        ExpiryImpact.Result e = p.expiry();
        if (e == null) {
            return;
        }
        line("");
        line(f("### A running sale while %,d unpaid orders expire at once", e.orders()));
        line("");
        line("| probe (new buyers of another sale, 32 connections) | answers/s | p50 | p99 | max |");
        line("|---|---|---|---|---|");
        for (Measured m : List.of(e.baseline(), e.duringExpiry())) {
            line(f("| %s | %,.0f | %.2f ms | %.2f ms | %.2f ms |", m.name(), m.rps(), m.latency().p50(),
                    m.latency().p99(), m.latency().max()));
        }
        line("");
        line(f("%,d orders expired during the second probe; the longest expiry pass took %.1f ms.", e.expired(),
                e.longestPassMs()));
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
        line("![answers per second by outcome](" + Report.THROUGHPUT_SVG + ")");
        line("");
        line("![latency percentiles over time](" + Report.LATENCY_SVG + ")");
    }

    private void floods() {
        if (r.floods().isEmpty()) {
            return;
        }
        line("");
        line("## The sold-out flood by connections");
        line("");
        line(f("Purchases of the sold-out flash sale for %s s per level, one user and address per connection, from client "
                + "processes of at most %,d connections each, measured from the moment every connection is open. Closed "
                + "loop: at saturation the latency is about connections / throughput, whatever the edge does. "
                + "\"reached the service\": its purchase answers meanwhile (the flag's re-checks, one per interval).",
                r.scenario().get("floodSecondsPerLevel"), FloodLevels.PER_PROCESS));
        line("");
        line("| connections | processes | answers | req/s | p50 ms | p99 ms | max ms | answers by kind | no answer | failed connections | edge alerts | answered by the flag | reached the service | re-checks |");
        line("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (FloodLevels.Level l : r.floods()) {
            Measured.Latency m = l.latency();
            line(f("| %,d | %d | %,d | **%,.0f** | %.1f | **%.1f** | %.1f | %s | %,d | %,d | %s | %,d | %,d | %,d |",
                    l.connections(), l.processes(), l.answers(), l.rps(), m.p50(), m.p99(), m.max(), l.byKind(),
                    l.noAnswer(), l.failedConnections(), l.edgeAlerts() == 0 ? "0" : l.edgeAlerts() + ": "
                            + l.firstAlert().replace("|", "/"), l.shortCircuits(), l.reachedService(), l.rechecks()));
        }
    }

    private void memory() {
        line("");
        line("## Resident memory (VmRSS, sampled every 250 ms)");
        line("");
        line("| component | max MB | mean MB | max MB during the flash sale |");
        line("|---|---|---|---|");
        for (Report.Memory m : r.memory()) {
            line(f("| %s | %.1f | %.1f | %.1f |", m.component(), m.maxMb(), m.meanMb(), m.maxMbDuringSale()));
        }
        line("");
        line("![resident memory over the bench](" + Report.MEMORY_SVG + ")");
    }

    private void cpu() {
        line("");
        line("## Where the CPU went (cores, from /proc; the machine is shared, \"others\" is everything outside this bench)");
        line("");
        if (r.cpu().isEmpty() || r.cpu().get(0).cores().isEmpty()) {
            line("(not sampled)");
            return;
        }
        List<String> keys = List.copyOf(r.cpu().get(0).cores().keySet());
        line("| window | seconds | " + String.join(" | ", keys) + " |");
        line("|---|---|" + "---|".repeat(keys.size()));
        for (Report.Cpu c : r.cpu()) {
            line(f("| %s | %.1f | ", c.window(), c.seconds()) + keys.stream().map(k -> f("%.2f", c.cores().getOrDefault(k, 0.0)))
                    .collect(Collectors.joining(" | ")) + " |");
        }
        line("");
        line("![CPU over the bench](" + Report.CPU_SVG + ")");
    }

    private void line(String text) {
        s.append(text).append('\n');
    }

    private static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }
}
