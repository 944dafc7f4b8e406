package dev.seckill.bench;

import dev.seckill.bench.report.Section;
import dev.seckill.bench.scenario.ShardCeiling;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code bin/seckill bench --cluster}'s comparison of its two runs, each dir's report.json and {@value
 * ShardCeiling#FILE}, as cluster / single in comparison.md and comparison.json (one machine: the ratios carry over, not
 * the absolutes). Arguments: CLUSTER_DIR SINGLE_DIR OUT_DIR.
 */
public final class Comparison {

    /** One number on each topology and cluster / single (null when single is 0 or either is missing). */
    public record Row(String name, String unit, Double cluster, Double single, Double ratio) {
    }

    public record Result(boolean clusterInvariantsHold, boolean singleInvariantsHold, JsonNode scenario,
            List<Row> rows) {
    }

    private Comparison() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("bench: usage: Comparison CLUSTER_DIR SINGLE_DIR OUT_DIR");
            System.exit(2);
        }
        Result r = compare(Path.of(args[0]), Path.of(args[1]));
        Path out = Files.createDirectories(Path.of(args[2]));
        Section.JSON.writeValue(out.resolve("comparison.json").toFile(), r);
        String md = markdown(r, Path.of(args[0]), Path.of(args[1]));
        Files.writeString(out.resolve("comparison.md"), md);
        System.out.print(md);
        System.out.println("comparison: " + out.resolve("comparison.md") + " (and comparison.json)");
    }

    public static Result compare(Path clusterDir, Path singleDir) throws IOException {
        JsonNode c = Section.JSON.readTree(clusterDir.resolve("report.json").toFile());
        JsonNode s = Section.JSON.readTree(singleDir.resolve("report.json").toFile());
        List<Row> rows = new ArrayList<>();
        rows.add(row("flash sale: answers per second", "req/s", c, s, "/flashSale/rps"));
        rows.add(row("flash sale: answers per second until the sell-out", "req/s", c, s, "/flashSale/rpsUntilSellOut"));
        rows.add(row("time to sell out", "s", c, s, "/flashSale/sellOutAt"));
        rows.add(row("flash sale latency p50", "ms", c, s, "/flashSale/latency/p50"));
        rows.add(row("flash sale latency p99", "ms", c, s, "/flashSale/latency/p99"));
        rows.add(row("writer drain after the sell-out", "s", c, s, "/flashSale/drainSeconds"));
        JsonNode cr = ceiling(clusterDir);
        JsonNode sr = ceiling(singleDir);
        for (int i = 0; i < Math.min(cr.size(), sr.size()); i++) {
            rows.add(row(cr.get(i).path("name").asText() + " (one shard / the one Redis)", "calls/s", cr, sr,
                    "/" + i + "/rps"));
        }
        return new Result(c.path("ok").asBoolean(), s.path("ok").asBoolean(), c.path("scenario"), rows);
    }

    /** A run's Redis ceilings, or none when that measurement failed (the rest is still compared). */
    private static JsonNode ceiling(Path dir) throws IOException {
        Path f = dir.resolve(ShardCeiling.FILE);
        return Files.exists(f) ? Section.JSON.readTree(f.toFile()) : Section.JSON.createArrayNode();
    }

    private static Row row(String name, String unit, JsonNode cluster, JsonNode single, String pointer) {
        Double c = cluster.at(pointer).isNumber() ? cluster.at(pointer).asDouble() : null;
        Double s = single.at(pointer).isNumber() ? single.at(pointer).asDouble() : null;
        return new Row(name, unit, c, s, c == null || s == null || s == 0 ? null : c / s);
    }

    public static String markdown(Result r, Path clusterDir, Path singleDir) {
        Section s = new Section("comparison", "Cluster against single stack, same run")
                .text("Scenario (both): %s", r.scenario()).text("Invariants: cluster %s, single stack %s",
                        r.clusterInvariantsHold() ? "all hold" : "VIOLATED",
                        r.singleInvariantsHold() ? "all hold" : "VIOLATED")
                .table("measured", "cluster", "single stack", "cluster / single");
        for (Row row : r.rows()) {
            s.row(row.name(), value(row.cluster(), row.unit()), value(row.single(), row.unit()),
                    Section.n("%.2f", row.ratio()));
        }
        return s.text("Reports: %s, %s", clusterDir.resolve("report.md"), singleDir.resolve("report.md")).markdown();
    }

    private static String value(Double v, String unit) {
        return v == null ? "-" : Section.f(v >= 100 ? "%,.0f %s" : "%.2f %s", v, unit);
    }
}
