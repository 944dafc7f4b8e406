package dev.seckill.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A run directory of {@code bin/seckill}: the secrets it generated there (unless the environment gives them) and the
 * pid it recorded for each node. The single stack and the cluster each have one.
 */
public final class RunDir {

    private final Path dir;

    RunDir(Path dir) {
        this.dir = dir;
    }

    Path path() {
        return dir;
    }

    /** The operators' bearer token: SECKILL_ADMIN_TOKEN, else the generated one. */
    public String adminToken() {
        return secret("SECKILL_ADMIN_TOKEN", "admin-token");
    }

    /** The secret that signs user tokens: SECKILL_TOKEN_SECRET, else the generated one. */
    public String tokenSecret() {
        return secret("SECKILL_TOKEN_SECRET", "token-secret");
    }

    /** The secret that signs waiting-room tickets: SECKILL_LINE_SECRET, else the generated one. */
    public String lineSecret() {
        return secret("SECKILL_LINE_SECRET", "line-secret");
    }

    /** The database password: SECKILL_DB_PASSWORD, else the generated one. */
    public String dbPassword() {
        return optionalSecret("SECKILL_DB_PASSWORD", "db-password", "seckill");
    }

    /** The Redis password: SECKILL_REDIS_PASSWORD, else the generated one; empty when Redis has none. */
    public String redisPassword() {
        return optionalSecret("SECKILL_REDIS_PASSWORD", "redis-password", "");
    }

    /** A secret: the environment variable, else the file bin/seckill generated; fails when there is neither. */
    private String secret(String var, String file) {
        String v = System.getenv(var);
        if (v != null && !v.isEmpty()) {
            return v;
        }
        try {
            return Files.readString(dir.resolve(file), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new IllegalStateException(var + " is not set and " + dir.resolve(file)
                    + " is unreadable: start the stack with bin/seckill up or run bin/seckill test", e);
        }
    }

    /** A secret that may be absent (a stack made before it existed): {@code def} then. */
    private String optionalSecret(String var, String file, String def) {
        String v = System.getenv(var);
        if (v != null && !v.isEmpty()) {
            return v;
        }
        Path f = dir.resolve(file);
        try {
            return Files.exists(f) ? Files.readString(f, StandardCharsets.UTF_8).trim() : def;
        } catch (IOException e) {
            throw new IllegalStateException(f + " is unreadable: " + e.getMessage(), e);
        }
    }

    /** The pid bin/seckill recorded for a node, or -1 when it has none. */
    long pid(String node) {
        try {
            Path f = dir.resolve("pids").resolve(node + ".pid");
            return Files.exists(f) ? Long.parseLong(Files.readString(f).trim()) : -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /**
     * SIGKILLs a node (a crash, not a stop) with every process it started, and waits until they are gone: an nginx
     * master killed alone leaves its workers serving on its port.
     */
    void kill9(String node) {
        crash(node).ifPresent(why -> {
            throw new AssertionError(why);
        });
    }

    /** As {@link #kill9}, saying what went wrong instead of failing: empty when the node's processes are gone. */
    Optional<String> crash(String node) {
        long pid = pid(node);
        if (pid <= 0) {
            return Optional.of(node + " has no pid file in " + dir);
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty()) {
            return Optional.empty();
        }
        ProcessHandle ph = process.get();
        var children = ph.descendants().toList();
        ph.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
        return Await.poll(Duration.ofSeconds(20), () -> !ph.isAlive()
                && children.stream().noneMatch(ProcessHandle::isAlive))
                ? Optional.empty() : Optional.of(node + " still runs 20 s after SIGKILL");
    }
}
