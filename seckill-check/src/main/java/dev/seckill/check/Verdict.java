package dev.seckill.check;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The checker's verdict: the violations it found (none is "no violation"), the documented exceptions, and the counts
 * of what it checked. Jackson writes it as it stands (records) for the report's JSON.
 */
public record Verdict(List<Violation> violations, List<Excused> exceptions, Counts counts) {

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
