package dev.seckill.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The batch writer against a row-at-a-time writer: the writer module's own WriterBenchmark (kafka-consumer/README),
 * run as a child JVM against the stack's MariaDB; its one JSON line is kept as it is.
 */
final class WriterCeiling {

    private WriterCeiling() {
    }

    static JsonNode run(Target target, int orders) throws IOException, InterruptedException {
        // The bench stack runs the writer from a snapshot of its jars; prefer it, so the same code is measured.
        Path dir = target.runDir().resolve("jars/writer");
        if (!Files.exists(dir.resolve("kafka-consumer.jar"))) {
            dir = target.home().resolve("kafka-consumer/target");
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m"));
        if (Runtime.version().feature() >= 24) {
            cmd.add("--sun-misc-unsafe-memory-access=allow");
        }
        cmd.addAll(List.of("-cp", dir.resolve("kafka-consumer.jar") + ":" + dir.resolve("libs") + "/*",
                "dev.seckill.writer.bench.WriterBenchmark", "--jdbc", target.jdbcUrl(), "--orders", Integer.toString(orders)));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("WriterBenchmark failed: " + out);
        }
        for (String line : out.split("\n")) {
            if (line.startsWith("{\"benchmark\":\"writer\"")) {
                return new ObjectMapper().readTree(line);
            }
        }
        throw new IOException("no result line from WriterBenchmark: " + out);
    }
}
