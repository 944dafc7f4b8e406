package dev.seckill.bench.report;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.seckill.bench.report.Section.f;

/**
 * The micro-benchmarks' figures as JMH's runner wrote them ({@value #FILE} in the report directory: bin/lib/bench.sh
 * runs the microbench module's benchmarks the options selected before the bench), for the sections that quote them.
 * A benchmark that did not run is absent: a section says so rather than show a figure.
 */
public record Jmh(List<Score> scores) {

    public static final String FILE = "jmh.json";

    /**
     * One benchmark (its class's simple name and method, e.g. {@code WriterBatch.batched}) at its parameters: JMH's
     * score with its error at 99.9 % (NaN from a single iteration), its unit, the best iteration (the lowest time,
     * the highest rate: the one neighbours disturbed least), its counters' scores, and how it was run.
     */
    public record Score(String benchmark, Map<String, String> params, double score, double error, String unit,
                        double best, Map<String, Double> counters, String run) {
    }

    /** The figures in {@code dir}'s {@value #FILE}; none when there is no such file. */
    public static Jmh read(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        if (!Files.exists(file)) {
            return new Jmh(List.of());
        }
        List<Score> scores = new ArrayList<>();
        for (JsonNode b : Section.JSON.readTree(file.toFile())) {
            JsonNode p = b.path("primaryMetric");
            boolean time = b.path("mode").asText().equals("avgt");
            double best = time ? Double.MAX_VALUE : 0;
            for (JsonNode fork : p.path("rawData")) {
                for (JsonNode it : fork) {
                    best = time ? Math.min(best, it.asDouble()) : Math.max(best, it.asDouble());
                }
            }
            Map<String, String> params = new LinkedHashMap<>();
            b.path("params").properties().forEach(e -> params.put(e.getKey(), e.getValue().asText()));
            Map<String, Double> counters = new LinkedHashMap<>();
            b.path("secondaryMetrics").properties().forEach(e -> counters.put(e.getKey(),
                    e.getValue().path("score").asDouble()));
            scores.add(new Score(b.path("benchmark").asText().replaceAll(".*\\.(\\w+\\.\\w+)$", "$1"), params,
                    p.path("score").asDouble(), number(p.path("scoreError")), p.path("scoreUnit").asText(), best,
                    counters, f("%d fork(s), %d x %s warm-up, %d x %s measured", b.path("forks").asInt(),
                            b.path("warmupIterations").asInt(), b.path("warmupTime").asText(),
                            b.path("measurementIterations").asInt(), b.path("measurementTime").asText())));
        }
        return new Jmh(List.copyOf(scores));
    }

    /** JMH writes "NaN" as a string. */
    private static double number(JsonNode n) {
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }

    /** {@code benchmark}'s score without parameters, or at the one given ({@code "bits", "8"}). */
    public Optional<Score> get(String benchmark, String... param) {
        return scores.stream().filter(s -> s.benchmark().equals(benchmark)
                && (param.length == 0 || param[1].equals(s.params().get(param[0])))).findFirst();
    }

    /** Every score of one class's benchmarks ({@code WriterBatch}), in JMH's order. */
    public List<Score> of(String benchmarkClass) {
        return scores.stream().filter(s -> s.benchmark().startsWith(benchmarkClass + ".")).toList();
    }

    /** What a section says in place of a figure whose benchmark did not run. */
    public static String missing(String benchmarkClass) {
        return f("%s did not run: no figure (`bin/seckill bench` runs it into %s; alone: `java -jar "
                + "microbench/target/seckill-microbench.jar %s`).", benchmarkClass, FILE, benchmarkClass);
    }
}
