package dev.seckill.bench.measure;

import dev.seckill.bench.report.Section;

import java.util.Set;

/**
 * A ceiling counts only the answers it is named after (the accepted purchase path its {@code 202 QUEUED}, the
 * trivial proxied route the service's {@code 200 UP}, ...): one whose named answers are under {@link #SHARE} of its
 * answers measures something else (the edge's own 404 or 429, say), and the bench fails with its breakdown.
 */
public final class NamedAnswers {

    static final double SHARE = 0.95;

    private NamedAnswers() {
    }

    /** The share of {@code m}'s answers (by {@link Answer#kind}) that are one of {@code named}; 0 without answers. */
    public static double share(Measured m, Set<String> named) {
        long all = m.byKind().values().stream().mapToLong(Long::longValue).sum();
        long ok = named.stream().mapToLong(k -> m.byKind().getOrDefault(k, 0L)).sum();
        return all == 0 ? 0 : (double) ok / all;
    }

    public static Measured require(Measured m, Set<String> named) {
        double share = share(m, named);
        if (share < SHARE) {
            throw new IllegalStateException(Section.f("the ceiling \"%s\" counts %s, but only %.1f %% of its %,d "
                    + "answers were (at least %.0f %% must be): %s", m.name(), named, 100 * share, m.requests(),
                    100 * SHARE, m.byKind()));
        }
        return m;
    }
}
