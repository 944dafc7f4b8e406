package dev.seckill.bench.scenario;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.seckill.bench.report.Jmh;
import dev.seckill.bench.report.Section;
import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.seckill.bench.report.Section.f;

/**
 * The writer's batch path against one order per transaction, as the microbench module's {@code WriterBatch} measured
 * them on the stack's MariaDB (orders/s, {@value Jmh#FILE}), with the ceilings' targets on them; and rows through the
 * batch path alone, the large sale's part cost, written by the same benchmark in a JVM of the bench's.
 */
public record WriterBenchmark(Jmh.Score batched, Jmh.Score rowAtATime) {

    static final String BENCHMARK = "WriterBatch";
    /** The large sale's part: one warm-up of 10 batches of 1,000 rows, then 100 batches, all in its window. */
    static final List<String> ROWS_RUN = List.of("-f", "0", "-bm", "ss", "-wi", "1", "-wbs", "10", "-i", "1", "-bs",
            "100");
    static final long ROWS = 110 * 1000;

    /** The figures in {@code jmh}; a side that did not run is null. */
    public static WriterBenchmark of(Jmh jmh) {
        return new WriterBenchmark(jmh.get(BENCHMARK + ".batched").orElse(null),
                jmh.get(BENCHMARK + ".rowAtATime").orElse(null));
    }

    /** Batched orders/s over row-at-a-time's; null without both. */
    @JsonProperty
    public Double ratio() {
        return batched == null || rowAtATime == null || rowAtATime.score() <= 0 ? null
                : Section.round(batched.score() / rowAtATime.score());
    }

    /** The batch writer's two targets and its figures, added to {@code s}. */
    public Section addTo(Section s) {
        if (batched == null) {
            s.goal("batch writer", "not measured", ">= 20,000 orders/s", false);
            s.goal("batch writer vs row-at-a-time", "not measured", ">= 10 x", false);
            return s.text(Jmh.missing(BENCHMARK));
        }
        s.goal("batch writer", f("%,.0f orders/s", batched.score()), ">= 20,000 orders/s", batched.score() >= 20_000);
        Double ratio = ratio();
        s.goal("batch writer vs row-at-a-time", ratio == null ? "not measured" : f("%.1f x", ratio), ">= 10 x",
                ratio != null && ratio >= 10);
        return s.text("Batch writer (JMH, %s in %s; %s): **%,.0f ± %,.0f orders/s** batched (batches of 1,000 "
                        + "over 4 sales, one transaction each) against %s row-at-a-time (one transaction per order on "
                        + "one kept connection): **%s**. Each side's sales held a row per order and lost a unit per "
                        + "row, or the benchmark would have failed.", BENCHMARK, Jmh.FILE, batched.run(),
                batched.score(), batched.error(), rowAtATime == null ? "not measured"
                        : f("%,.0f orders/s", rowAtATime.score()), ratio == null ? "no ratio" : f("%.1f x", ratio));
    }

    /**
     * Rows through the batch path alone ({@link #ROWS_RUN}: {@value #ROWS} rows), by JMH's runner from the microbench
     * jar in a child JVM, counted in the bench's own CPU; its JSON and output beside the report. The child's start is
     * in the window too (a few tenths of a second of a core).
     */
    static long rows(Stack stack, Path out) throws IOException, InterruptedException {
        Path dir = Files.createDirectories(out);
        Path jar = stack.home().resolve("microbench/target/seckill-microbench.jar");
        String java = ProcessHandle.current().info().command().orElse("java");
        // JMH's machine-wide lock ignored, as bin/lib/bench.sh does: another's JMH run must not fail the bench.
        List<String> command = new ArrayList<>(List.of(java, "-Djmh.ignoreLock=true", "-jar", jar.toString(),
                BENCHMARK + ".batched", "-foe", "true", "-rf", "json", "-rff",
                dir.resolve("large-sale-rows.json").toString()));
        command.addAll(ROWS_RUN);
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("large-sale-rows.txt").toFile()).start();
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("the batch path's rows (" + String.join(" ", command) + ") failed: see "
                    + dir.resolve("large-sale-rows.txt"));
        }
        return ROWS;
    }
}
