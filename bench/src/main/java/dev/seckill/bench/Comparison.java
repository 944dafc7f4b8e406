package dev.seckill.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bin/seckill bench --cluster}'s comparison: the same scenario run on the cluster and then on the single stack
 * in one invocation, each with its report ({@code report.json}) and its Redis ceiling ({@code redis-ceiling.json}),
 * side by side as ratios cluster / single, written as {@code comparison.md} and {@code comparison.json}. Numbers from
 * one machine in one run; the ratio is what carries over, not the absolutes. Arguments: {@code CLUSTER_DIR SINGLE_DIR
 * OUT_DIR}.
 */
public final class Comparison {

    /** One compared number: its value on each topology and cluster / single (null when single is 0 or missing). */
    record Row(String name, String unit, Double cluster, Double single, Double ratio) {

        static Row of(String name, String unit, Double cluster, Double single) {
            Double ratio = cluster == null || single == null || single == 0 ? null : cluster / single;
            return new Row(name, unit, cluster, single, ratio);
        }
    }

    record Result(boolean clusterInvariantsHold, boolean singleInvariantsHold, Map<String, Object> scenario,
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
        Path out = Path.of(args[2]);
        Files.createDirectories(out);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.resolve("comparison.json").toFile(), r);
        String md = markdown(r, Path.of(args[0]), Path.of(args[1]));
        Files.writeString(out.resolve("comparison.md"), md);
        System.out.print(md);
        System.out.println("comparison: " + out.resolve("comparison.md") + " (and comparison.json)");
    }

    static Result compare(Path clusterDir, Path singleDir) throws IOException {
        ObjectMapper json = new ObjectMapper();
        JsonNode c = json.readTree(clusterDir.resolve("report.json").toFile());
        JsonNode s = json.readTree(singleDir.resolve("report.json").toFile());
        JsonNode cr = ceiling(json, clusterDir);
        JsonNode sr = ceiling(json, singleDir);
        List<Row> rows = new ArrayList<>();
        rows.add(Row.of("flash sale: answers per second", "req/s", num(c, "flashSale", "rps"), num(s, "flashSale", "rps")));
        rows.add(Row.of("flash sale: answers per second until the sell-out", "req/s",
                num(c, "flashSale", "rpsUntilSellOut"), num(s, "flashSale", "rpsUntilSellOut")));
        rows.add(Row.of("time to sell out", "s", num(c, "flashSale", "sellOutAt"), num(s, "flashSale", "sellOutAt")));
        rows.add(Row.of("flash sale latency p50", "ms", num(c, "flashSale", "latency", "p50"),
                num(s, "flashSale", "latency", "p50")));
        rows.add(Row.of("flash sale latency p99", "ms", num(c, "flashSale", "latency", "p99"),
                num(s, "flashSale", "latency", "p99")));
        rows.add(Row.of("writer drain after the sell-out", "s", num(c, "flashSale", "drainSeconds"),
                num(s, "flashSale", "drainSeconds")));
        for (int i = 0; i < Math.min(cr.size(), sr.size()); i++) {
            rows.add(Row.of(cr.get(i).path("name").asText() + " (one shard / the one Redis)", "calls/s",
                    num(cr.get(i), "rps"), num(sr.get(i), "rps")));
        }
        Map<String, Object> scenario = json.convertValue(c.path("scenario"), json.getTypeFactory()
                .constructMapType(LinkedHashMap.class, String.class, Object.class));
        return new Result(c.path("ok").asBoolean(), s.path("ok").asBoolean(), scenario, rows);
    }

    /** The Redis ceilings of a run, or none when that measurement failed (the rest is still compared). */
    private static JsonNode ceiling(ObjectMapper json, Path dir) throws IOException {
        Path f = dir.resolve(ShardCeiling.FILE);
        return Files.exists(f) ? json.readTree(f.toFile()) : json.createArrayNode();
    }

    private static Double num(JsonNode n, String... path) {
        for (String p : path) {
            n = n.path(p);
        }
        return n.isNumber() ? n.asDouble() : null;
    }

    static String markdown(Result r, Path clusterDir, Path singleDir) {
        StringBuilder b = new StringBuilder("# Cluster against single stack, same run\n\n");
        b.append("Scenario (both): ").append(r.scenario()).append("\n\n");
        b.append("Invariants: cluster ").append(r.clusterInvariantsHold() ? "all hold" : "VIOLATED")
                .append(", single stack ").append(r.singleInvariantsHold() ? "all hold" : "VIOLATED").append("\n\n");
        b.append("| measured | cluster | single stack | cluster / single |\n|---|---|---|---|\n");
        for (Row row : r.rows()) {
            b.append("| ").append(row.name()).append(" | ").append(value(row.cluster(), row.unit())).append(" | ")
                    .append(value(row.single(), row.unit())).append(" | ")
                    .append(row.ratio() == null ? "-" : String.format(Locale.ROOT, "%.2f", row.ratio())).append(" |\n");
        }
        b.append("\nReports: ").append(clusterDir.resolve("report.md")).append(", ").append(singleDir.resolve("report.md"))
                .append("\n");
        return b.toString();
    }

    private static String value(Double v, String unit) {
        if (v == null) {
            return "-";
        }
        return String.format(Locale.ROOT, v >= 100 ? "%,.0f %s" : "%.2f %s", v, unit);
    }
}
