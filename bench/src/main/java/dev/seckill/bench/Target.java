package dev.seckill.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The stack a bench runs against: the checkout (for lua/, bench/ and the writer jar), the run directory (pid
 * files), the ports and the two secrets. {@link #fromEnvironment()} reads the variables {@code bin/seckill} uses,
 * with its defaults.
 */
public record Target(Path home, Path runDir, int edgePort, int servicePort, int writerPort, int redisPort, int dbPort,
                     String adminToken, String tokenSecret) {

    public String edgeUrl() {
        return "http://127.0.0.1:" + edgePort;
    }

    public String serviceUrl() {
        return "http://127.0.0.1:" + servicePort;
    }

    public String redisAddress() {
        return "redis://127.0.0.1:" + redisPort;
    }

    public String jdbcUrl() {
        return "jdbc:mariadb://127.0.0.1:" + dbPort + "/seckill";
    }

    /** The pid {@code bin/seckill} recorded for a component, or -1. */
    public long pid(String component) {
        try {
            Path f = runDir.resolve("pids").resolve(component + ".pid");
            return Files.exists(f) ? Long.parseLong(Files.readString(f).trim()) : -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    public static Target fromEnvironment() {
        Path home = Path.of(env("SECKILL_HOME", ".")).toAbsolutePath().normalize();
        Path run = Path.of(env("SECKILL_RUN_DIR", home.resolve(".run/local").toString()));
        Path runDir = run.isAbsolute() ? run : home.resolve(run);
        return new Target(home, runDir, port("SECKILL_EDGE_PORT", 8080), port("SECKILL_SERVICE_PORT", 8081),
                port("SECKILL_WRITER_PORT", 8082), port("SECKILL_REDIS_PORT", 16379), port("SECKILL_DB_PORT", 13306),
                secret(runDir, "SECKILL_ADMIN_TOKEN", "admin-token"), secret(runDir, "SECKILL_TOKEN_SECRET", "token-secret"));
    }

    private static String secret(Path runDir, String var, String file) {
        String v = System.getenv(var);
        if (v != null && !v.isEmpty()) {
            return v;
        }
        try {
            return Files.readString(runDir.resolve(file), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new IllegalStateException(var + " is not set and " + runDir.resolve(file) + " is unreadable", e);
        }
    }

    private static int port(String var, int def) {
        return Integer.parseInt(env(var, Integer.toString(def)));
    }

    private static String env(String var, String def) {
        String v = System.getenv(var);
        return v == null || v.isEmpty() ? def : v;
    }
}
