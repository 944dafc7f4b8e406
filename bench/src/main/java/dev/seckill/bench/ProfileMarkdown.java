package dev.seckill.bench;

import java.util.List;
import java.util.Locale;

/** The report's "where the time goes in the service" section, from a {@link ServiceProfile}. */
final class ProfileMarkdown {

    private final StringBuilder s = new StringBuilder();

    private ProfileMarkdown() {
    }

    static String render(ServiceProfile p) {
        ProfileMarkdown m = new ProfileMarkdown();
        m.all(p);
        return m.s.toString();
    }

    private void all(ServiceProfile p) {
        line("");
        line("## Where the time goes in the service (--profile)");
        line("");
        if (p.cpuSamples() == 0 && p.wallSamples() == 0) {
            // Nothing sampled (a run too short or too idle): what the recording did see, the collections, still counts.
            line("Profile " + p.tool() + ": no CPU or wall-clock samples; " + gc(p) + ".");
            return;
        }
        line(f("%s, over %.1f s of the bench (the ceilings, the flash sale and the flood): %,d CPU samples. "
                + "Execution samples cover running Java code only (not the GC's own threads, not native code such as "
                + "epoll); the machine is shared, so the split is indicative. `%s` holds the recording (open it in JDK "
                + "Mission Control, or `jfr print`/`jfr view`); `%s` the CPU stacks in the collapsed format of "
                + "flamegraph.pl.", p.tool(), p.seconds(), p.cpuSamples(), ServiceProfile.JFR_FILE,
                ServiceProfile.CPU_COLLAPSED));
        line("");
        line("| CPU: part of the service (leaf-most non-JDK frame) | samples | share |");
        line("|---|---|---|");
        shares(p.cpu(), "%,.0f");
        line(f("| garbage collection: %,d collections, pauses | %.1f ms in all | longest %.1f ms |",
                p.gc().collections(), p.gc().pauseMs(), p.gc().longestPauseMs()));
        line("");
        line("| CPU: hottest leaf methods | samples | share |");
        line("|---|---|---|");
        shares(p.topFrames(), "%,.0f");
        line("");
        line(f("Wall clock: %,d thread dumps of the service; in them %,d connection threads at work (below) and %,d "
                + "idle between requests (left out). A thread waiting in Redisson or the Kafka producer is a purchase "
                + "waiting for its script or its send; \"%s\" had its answer but no free core (the hand-off back to the request). The dumps "
                + "cost the service CPU and allocation of their own: the CPU and allocation tables show it as \"%s\".",
                p.threadDumps(), p.wallSamples(), p.wallIdle(), WallClock.READY, StackCategory.PROFILER));
        line("");
        line("| connection threads at work: state · part (leaf-most non-JDK frame) | samples | share |");
        line("|---|---|---|");
        shares(p.wall(), "%,.0f");
        line("");
        line("| connection threads at work: where (first non-JDK frame) | samples | share |");
        line("|---|---|---|");
        shares(p.wallSites(), "%,.0f");
        line("");
        line(f("| allocation (JFR's samples, weighted) by part | MB | share of %,.0f MB |", p.allocatedMb()));
        line("|---|---|---|");
        shares(p.allocation(), "%,.1f");
        line("");
        line("![CPU samples of the service, as an icicle graph](" + ServiceProfile.CPU_FLAME + ")");
        line("");
        line("![the connection threads at work over wall-clock time](" + ServiceProfile.WALL_FLAME + ")");
    }

    private void shares(List<ServiceProfile.Share> rows, String valueFormat) {
        for (ServiceProfile.Share r : rows) {
            line(f("| %s | " + valueFormat + " | %.1f %% |", r.name().replace("|", "/"), r.value(), 100 * r.share()));
        }
    }

    private void line(String text) {
        s.append(text).append('\n');
    }

    private static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }

    /** The collections, for a profile that sampled nothing (the table has them in its own row). */
    private static String gc(ServiceProfile p) {
        return f("garbage collection: %,d collections, pauses %.1f ms in all", p.gc().collections(), p.gc().pauseMs());
    }
}
