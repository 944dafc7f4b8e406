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
        Ceilings.Result c = r.ceilingResult();
        Measured shortCircuit = c == null ? null : c.best().get(Ceilings.SHORT_CIRCUIT_CLIENT);
        s.append('\n').append(r.flashSale().section(shortCircuit == null ? null : shortCircuit.rps()).markdown());
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

    private void line(String text) {
        s.append(text).append('\n');
    }

    private static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }
}
