package dev.seckill.bench;

import dev.seckill.testkit.Stack;

import java.io.IOException;
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

    /** The stack the environment names (the variables and defaults of {@code bin/seckill}, read by {@link Stack}). */
    public static Target fromEnvironment() {
        return of(Stack.get());
    }

    public static Target of(Stack s) {
        return new Target(s.home(), s.runDir(), s.edgePort(), s.servicePort(), s.writerPort(), s.redisPort(),
                s.dbPort(), s.adminToken(), s.tokenSecret());
    }
}
