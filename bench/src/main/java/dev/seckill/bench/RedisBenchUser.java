package dev.seckill.bench;

import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway Redis user for redis-benchmark, which takes a password only on its command line ({@code -a}), where
 * every local user could read it. So it never gets the stack's password: it gets a user of its own, made for one
 * run with a random password, allowed only reads, writes and EVALSHA on the keys under {@code keyPrefix} (a test
 * sale no service knows), and deleted on {@link #close()}. The user is made with redis-cli, which reads the stack's
 * password from the environment (REDISCLI_AUTH) and the command from stdin. A Redis without a password needs none.
 */
final class RedisBenchUser implements AutoCloseable {

    private final Stack stack;
    private final int port;
    private final String name;
    private final String password;

    private RedisBenchUser(Stack stack, int port, String name, String password) {
        this.stack = stack;
        this.port = port;
        this.name = name;
        this.password = password;
    }

    static RedisBenchUser create(Stack stack, int port, String keyPrefix) throws IOException, InterruptedException {
        if (stack.redisPassword().isEmpty()) {
            return new RedisBenchUser(stack, port, null, null);
        }
        SecureRandom random = new SecureRandom();
        RedisBenchUser u = new RedisBenchUser(stack, port, "seckill-bench-" + HexFormat.of().toHexDigits(random.nextInt()),
                HexFormat.of().formatHex(random.generateSeed(24)));
        u.redisCli("ACL SETUSER " + u.name + " on >" + u.password + " resetkeys ~" + keyPrefix + "* resetchannels"
                + " -@all +@read +@write -@dangerous +evalsha");
        return u;
    }

    /** redis-benchmark's options to sign in as this user; none when Redis has no password. */
    List<String> benchmarkOptions() {
        return name == null ? List.of() : List.of("--user", name, "-a", password);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (name != null) {
            redisCli("ACL DELUSER " + name);
        }
    }

    private void redisCli(String command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("redis-cli", "-h", "127.0.0.1", "-p",
                Integer.toString(port)).redirectErrorStream(true);
        pb.environment().put("REDISCLI_AUTH", stack.redisPassword());
        Process p = pb.start();
        try (OutputStream in = p.getOutputStream()) {
            in.write((command + "\n").getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        // redis-cli exits 0 on a Redis error too: the answer says.
        if (!p.waitFor(30, TimeUnit.SECONDS) || !out.matches("OK|\\(integer\\) 1|1")) {
            p.destroyForcibly();
            throw new IOException("failed to run redis-cli " + command.substring(0, command.indexOf(' ', 4)) + ": " + out);
        }
    }
}
