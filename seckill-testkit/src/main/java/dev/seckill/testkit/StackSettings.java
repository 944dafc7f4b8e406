package dev.seckill.testkit;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * {@code bin/stack.env}, the stack's table of ports and settings that {@code bin/seckill} sources: plain
 * {@code KEY=value} lines and {@code #} comments, which {@link Properties} reads the same way the shell does.
 */
final class StackSettings {

    static final String FILE = "bin/stack.env";

    private StackSettings() {
    }

    static Properties read(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new IllegalStateException("failed to read the stack's settings " + file + ": " + e.getMessage(), e);
        }
        return p;
    }

    /** The names of the keys that start with {@code prefix}, without it, sorted. */
    static List<String> names(Properties p, String prefix) {
        return p.stringPropertyNames().stream().filter(k -> k.startsWith(prefix))
                .map(k -> k.substring(prefix.length())).sorted().toList();
    }
}
