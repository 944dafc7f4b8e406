package dev.seckill.testkit;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * One topology's settings in {@code bin/stack.env}, the table of ports and settings that {@code bin/seckill} sources
 * (plain {@code KEY=value} lines and {@code #} comments, which {@link Properties} reads the same way the shell does),
 * read as the script reads them: the single stack's {@code LOCAL_<NAME>} lines, each overridden by
 * {@code SECKILL_<NAME>}, in {@code SECKILL_RUN_DIR} (.run/local); the cluster's {@code CLUSTER_<NAME>}, overridden by
 * {@code SECKILL_CLUSTER_<NAME>}, in {@code SECKILL_CLUSTER_RUN_DIR} (.run/cluster).
 */
final class StackSettings {

    static final String FILE = "bin/stack.env";

    private final Path home;
    private final Properties file;
    private final String profile;
    private final String envPrefix;
    private final String defaultRunDir;

    private StackSettings(Path home, String profile, String envPrefix, String defaultRunDir) {
        this.home = home;
        this.file = read(home.resolve(FILE));
        this.profile = profile;
        this.envPrefix = envPrefix;
        this.defaultRunDir = defaultRunDir;
    }

    static StackSettings single(Path home) {
        return new StackSettings(home, "LOCAL_", "SECKILL_", ".run/local");
    }

    static StackSettings cluster(Path home) {
        return new StackSettings(home, "CLUSTER_", "SECKILL_CLUSTER_", ".run/cluster");
    }

    /** A setting by its name in the file ({@code KAFKA_PARTITIONS}): the environment's, else the file's. */
    String get(String name) {
        String v = System.getenv(envPrefix + name);
        if (v != null && !v.isEmpty()) {
            return v;
        }
        String d = file.getProperty(profile + name);
        if (d == null) {
            throw new IllegalArgumentException("no setting " + profile + name + " in " + home.resolve(FILE));
        }
        return d;
    }

    /** The run directory (relative to the repository if the variable is). */
    Path runDir() {
        String v = System.getenv(envPrefix + "RUN_DIR");
        Path p = Path.of(v == null || v.isEmpty() ? defaultRunDir : v);
        return p.isAbsolute() ? p : home.resolve(p);
    }

    /** The environment a command on this topology gets: its run directory, every port and the secrets. */
    Map<String, String> environment(RunDir run) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put(envPrefix + "RUN_DIR", run.path().toString());
        file.stringPropertyNames().stream().filter(k -> k.startsWith(profile) && k.endsWith("_PORT")).sorted()
                .map(k -> k.substring(profile.length()))
                .forEach(name -> env.put(envPrefix + name, get(name)));
        env.put("SECKILL_ADMIN_TOKEN", run.adminToken());
        env.put("SECKILL_TOKEN_SECRET", run.tokenSecret());
        env.put("SECKILL_LINE_SECRET", run.lineSecret());
        return env;
    }

    private static Properties read(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new IllegalStateException("failed to read the stack's settings " + file + ": " + e.getMessage(), e);
        }
        return p;
    }
}
