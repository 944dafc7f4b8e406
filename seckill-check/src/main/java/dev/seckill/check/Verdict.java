package dev.seckill.check;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The checker's verdict: the violations it found (none is "no violation"), the documented exceptions, the counts
 * of what it checked, and each sale's figures with its own findings. Jackson writes it as it stands (records) for the
 * report's JSON.
 */
public record Verdict(List<Violation> violations, List<Excused> exceptions, Counts counts, List<SaleSummary> sales) {

    /** The figures and findings of one sale of the final state. */
    public SaleSummary sale(long saleId) {
        return sales.stream().filter(s -> s.saleId() == saleId).findFirst().orElseThrow(() ->
                new IllegalArgumentException("sale " + saleId + " is not in the final state checked"));
    }

    public boolean holds() {
        return violations.isEmpty();
    }

    /** "no violation", or one line per violation: what the runner prints. */
    public String summary() {
        return holds() ? "no violation" : violations.stream().map(Violation::line).collect(Collectors.joining("\n"));
    }

    /** One line per documented exception (empty when there was none). */
    public String exceptionLines() {
        return exceptions.stream().map(Excused::line).collect(Collectors.joining("\n"));
    }
}
