package dev.seckill.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.NullNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One section of the report: its Markdown (a heading, paragraphs, tables), its data, written under {@code key} in
 * report.json, and the targets it measured. A scenario builds one and {@link BenchReport} writes them all; numbers are
 * formatted once, by the scenario, with {@link #f}.
 */
public final class Section {

    /** The bench's one JSON mapper: report.json, the hot sale's files, wrk's summary, the flood's open connections. */
    public static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** One target: measured against wanted; reported, never asserted by tests. */
    public record Goal(String name, String measured, String target, boolean met) {
    }

    private final String key;
    private final StringBuilder md = new StringBuilder();
    private final List<Goal> goals = new ArrayList<>();
    private JsonNode data = NullNode.getInstance();

    public Section(String key, String title) {
        this.key = key;
        md.append("## ").append(title).append("\n");
    }

    /** A paragraph (or a sub-heading when it starts with '#'), formatted with {@link #f}. */
    public Section text(String format, Object... args) {
        md.append('\n').append(f(format, args)).append('\n');
        return this;
    }

    /** Starts a table with these column names. */
    public Section table(String... columns) {
        md.append('\n').append(cells(columns)).append('\n').append("|---".repeat(columns.length)).append("|\n");
        return this;
    }

    /** One row of the current table; each cell as {@link String#valueOf}, '|' escaped. */
    public Section row(Object... cells) {
        md.append(cells(cells)).append('\n');
        return this;
    }

    /** The section's data in report.json: records and maps as Jackson writes them. */
    public Section data(Object value) {
        data = JSON.valueToTree(value);
        return this;
    }

    /** A target this section measured; {@code measured} formatted with {@link #f}. */
    public Section goal(String name, String measured, String target, boolean met) {
        goals.add(new Goal(name, measured, target, met));
        return this;
    }

    /** A target on a p99 of at most {@code max} ms. */
    public Section millis(String name, double p99, int max) {
        return goal(name, f("%.1f ms", p99), "<= " + max + " ms", p99 <= max);
    }

    /** A target on {@code a / b} of at least {@code min} x: "0.42 x (12,000 units/s vs 28,571 req/s)". */
    public Section versus(String name, double a, double b, String vs, double min) {
        return goal(name, f("%.2f x (%,.0f " + vs + ")", a / b, a, b), ">= " + min + " x", a / b >= min);
    }

    public String key() {
        return key;
    }

    public JsonNode data() {
        return data;
    }

    public List<Goal> goals() {
        return goals;
    }

    public String markdown() {
        return md.toString();
    }

    /** {@link String#format} in the root locale, the one format of every number in the report. */
    public static String f(String format, Object... args) {
        return args.length == 0 ? format : String.format(Locale.ROOT, format, args);
    }

    /** A number or "-" when there is none. */
    public static String n(String format, Number value) {
        return value == null ? "-" : f(format, value);
    }

    /** Two decimals, as report.json keeps its derived numbers. */
    public static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    private static String cells(Object[] cells) {
        return Arrays.stream(cells).map(c -> String.valueOf(c).replace("|", "/"))
                .collect(Collectors.joining(" | ", "| ", " |"));
    }
}
