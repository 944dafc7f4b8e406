package dev.seckill.bench;

import dev.seckill.redis.Keys;
import dev.seckill.testkit.Stack;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * redis-benchmark of the service's purchase script (lua/purchase.lua, loaded with SCRIPT LOAD) through EVALSHA, one
 * buyer per call (as with redis.coalesce-max 1), 50 clients, no pipelining, on the keys of a dedicated test sale that
 * no service knows (stock 10^9, open window):
 * <ul>
 * <li>{@code random users}: user, order id and bucket key are {@code __rand_int__}, so nearly every call is a fresh
 * buyer: bucket refill, window check, HGET miss, DECR, HSET — the QUEUED path, the script's most expensive one;</li>
 * <li>{@code one user}: always the same user and clock, so after its burst every call is refused by the bucket
 * (RATE_LIMITED), the script's cheapest path.</li>
 * </ul>
 * The sale's keys are deleted afterwards; the bucket keys expire on their own within seconds. redis-benchmark signs in
 * as a {@link RedisBenchUser} made for the run, never with the stack's password.
 */
final class RedisCeiling {

    static final long TEST_SALE = 999_999_998L;

    /** Every key of the test sale lives in this key's slot. */
    static String testSaleKey() {
        return Keys.stock(TEST_SALE);
    }

    private RedisCeiling() {
    }

    /**
     * Runs both benchmarks on the Redis at {@code port}: the stack's own, or on a cluster the master that serves the
     * test sale's slot (the script and the sale's keys go through {@code redis}, which routes them there).
     */
    static List<Measured> run(Stack stack, RedissonClient redis, int port, int requests)
            throws IOException, InterruptedException {
        return onTestSale(stack, redis, port, (sha, user, now) -> List.of(
                benchmark(port, user, "redis EVALSHA purchase.lua, random users (QUEUED path)", requests,
                        queuedPath(sha, now)),
                benchmark(port, user, "redis EVALSHA purchase.lua, one user (RATE_LIMITED path)", requests,
                        List.of("EVALSHA", sha, "5", Keys.stock(TEST_SALE), Keys.buyers(TEST_SALE),
                                Keys.meta(TEST_SALE), Keys.unsent(TEST_SALE), Keys.bucket(TEST_SALE, 1), "1", "3", "1",
                                "77", Long.toString(now)))));
    }

    /** The QUEUED path alone: {@code requests} calls, each a fresh buyer, as a sale's purchase costs Redis. */
    static Measured queued(Stack stack, RedissonClient redis, int port, int requests)
            throws IOException, InterruptedException {
        return onTestSale(stack, redis, port, (sha, user, now) -> List.of(benchmark(port, user,
                "redis EVALSHA purchase.lua, random users (QUEUED path)", requests, queuedPath(sha, now)))).get(0);
    }

    private interface Benchmarks {
        List<Measured> run(String sha, RedisBenchUser user, long now) throws IOException, InterruptedException;
    }

    /** Loads the script, makes the test sale's keys and a user for redis-benchmark, runs, and cleans up. */
    private static List<Measured> onTestSale(Stack stack, RedissonClient redis, int port, Benchmarks benchmarks)
            throws IOException, InterruptedException {
        String script = Files.readString(stack.home().resolve("lua/purchase.lua"), StandardCharsets.UTF_8);
        String sha = redis.getScript(StringCodec.INSTANCE).scriptLoad(script);
        long now = System.currentTimeMillis();
        redis.getBucket(Keys.stock(TEST_SALE), StringCodec.INSTANCE).set("1000000000");
        redis.getMap(Keys.meta(TEST_SALE), StringCodec.INSTANCE).putAll(Map.of("start", "0", "end", Long.toString(now + 86_400_000L)));
        try (RedisBenchUser user = RedisBenchUser.create(stack, port, saleKeyPrefix())) {
            return benchmarks.run(sha, user, now);
        } finally {
            redis.getKeys().delete(Keys.stock(TEST_SALE), Keys.buyers(TEST_SALE), Keys.meta(TEST_SALE),
                    Keys.bucket(TEST_SALE, 1), Keys.unsent(TEST_SALE));
        }
    }

    /** A fresh buyer each call: user, order id and bucket key are redis-benchmark's {@code __rand_int__}. */
    private static List<String> queuedPath(String sha, long now) {
        // The bucket key of a random user: Keys' own key with redis-benchmark's placeholder for the user id.
        String users = Keys.bucket(TEST_SALE, 0).replaceFirst("0$", "__rand_int__");
        return List.of("-r", "1000000000", "EVALSHA", sha, "5", Keys.stock(TEST_SALE), Keys.buyers(TEST_SALE),
                Keys.meta(TEST_SALE), Keys.unsent(TEST_SALE), users, "1", "3", "__rand_int__", "__rand_int__",
                Long.toString(now));
    }

    /** What every key of the test sale starts with (its hash tag): all the benchmark's user may touch. */
    private static String saleKeyPrefix() {
        String a = Keys.stock(TEST_SALE);
        String b = Keys.buyers(TEST_SALE);
        int n = 0;
        while (n < Math.min(a.length(), b.length()) && a.charAt(n) == b.charAt(n)) {
            n++;
        }
        return a.substring(0, n);
    }

    private static Measured benchmark(int port, RedisBenchUser user, String name, int requests, List<String> command)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("redis-benchmark", "-h", "127.0.0.1", "-p",
                Integer.toString(port), "-n", Integer.toString(requests), "-c", "50", "--csv"));
        cmd.addAll(user.benchmarkOptions());
        cmd.addAll(command);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("redis-benchmark failed: " + out);
        }
        // --csv: a header line, then "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms",
        // "p99_latency_ms","max_latency_ms".
        for (String line : out.split("\n")) {
            String[] f = line.replace("\"", "").split(",");
            if (f.length >= 8 && !f[0].equals("test") && f[1].matches("[0-9.]+")) {
                double rps = Double.parseDouble(f[1]);
                Map<String, Long> byStatus = new LinkedHashMap<>();
                byStatus.put("calls", (long) requests);
                return new Measured(name, "redis-benchmark", requests, requests / rps, rps, byStatus, byStatus,
                        new Measured.Latency(Double.parseDouble(f[4]), 0, Double.parseDouble(f[6]),
                                Double.parseDouble(f[7]), Double.parseDouble(f[2])), null);
            }
        }
        throw new IOException("unreadable redis-benchmark output: " + out);
    }
}
