package dev.seckill.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A section added to a written report: its JSON under a key of report.json, its Markdown at the end of report.md. */
public final class ReportSections {

    public static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ReportSections() {
    }

    public static void add(Path out, String key, JsonNode section, String markdown) throws IOException {
        Path report = out.resolve("report.json");
        ObjectNode root = (ObjectNode) JSON.readTree(report.toFile());
        root.set(key, section);
        Files.writeString(report, JSON.writeValueAsString(root));
        Files.writeString(out.resolve("report.md"), "\n" + markdown, StandardOpenOption.APPEND);
    }
}
