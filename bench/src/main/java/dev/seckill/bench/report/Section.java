package dev.seckill.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One section of the report: its Markdown (a heading, paragraphs, tables) and its data, written under {@code key} in
 * report.json. A scenario builds one and {@link #addTo adds it} to the written report; numbers are formatted once,
 * by the scenario, with {@link #f}.
 */
public final class Section {

    private final String key;
    private final StringBuilder md = new StringBuilder();
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
        data = ReportSections.JSON.valueToTree(value);
        return this;
    }

    public String key() {
        return key;
    }

    public String markdown() {
        return md.toString();
    }

    public void addTo(Path out) throws IOException {
        ReportSections.add(out, key, data, markdown());
    }

    /** {@link String#format} in the root locale, the one format of every number in the report. */
    public static String f(String format, Object... args) {
        return args.length == 0 ? format : String.format(Locale.ROOT, format, args);
    }

    /** A number or "-" when there is none. */
    public static String n(String format, Number value) {
        return value == null ? "-" : f(format, value);
    }

    private static String cells(Object[] cells) {
        return Arrays.stream(cells).map(c -> String.valueOf(c).replace("|", "/"))
                .collect(Collectors.joining(" | ", "| ", " |"));
    }
}
