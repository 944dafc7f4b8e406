package dev.seckill.bench.scenario;

import dev.seckill.bench.report.Progress;
import dev.seckill.bench.load.Generators;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.report.Section;
import dev.seckill.redis.Keys;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.ClusterStack;
import dev.seckill.testkit.Stack;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * redis-benchmark of purchase.lua by EVALSHA (one buyer per call, 50 clients, no pipelining) on a test sale no service
 * knows: random users (the QUEUED path, the script's dearest) and one user (RATE_LIMITED after its burst, the
 * cheapest). redis-benchmark takes a password only on its command line, so it signs in as a user made for the run
 * (random password, the test sale's keys only). {@code main(--out DIR [--cluster])} writes {@value #FILE}: with
 * --cluster on the master serving the test sale's slot, the ceiling of one shard and so of one sale.
 */
public final class ShardCeiling {

    public static final String FILE = "redis-ceiling.json";
    /** redis-benchmark's own reports, one a path of the script. */
    public static final String REPORTS = "redis-benchmark-*.csv";
    static final long TEST_SALE = 999_999_998L;

    private ShardCeiling() {
    }

    public static void main(String[] args) throws Exception {
        int out = List.of(args).indexOf("--out") + 1;
        if (out == 0 || out == args.length) {
            System.err.println("bench: usage: ShardCeiling --out DIR [--cluster]");
            System.exit(2);
        }
        boolean cluster = List.of(args).contains("--cluster");
        Stack stack = Stack.get();
        String where = cluster ? ClusterStack.get().redis().masterOf(Keys.stock(TEST_SALE)).orElseThrow() : "redis";
        int port = cluster ? ClusterStack.get().port(where) : stack.redisPort();
        // A client of that one node: a cluster client's lazy first connect can hang when a node drops it meanwhile.
        RedissonClient redis = RedisClients.connect("redis://127.0.0.1:" + port, null, stack.redisPassword());
        try {
            Progress.say("redis-benchmark of the purchase script on " + where + " (127.0.0.1:" + port + ")");
            Path dir = Files.createDirectories(Path.of(args[out]));
            Section.JSON.writeValue(dir.resolve(FILE).toFile(), run(stack, redis, port, 100_000, true, dir));
        } finally {
            redis.shutdown();
        }
    }

    /**
     * The QUEUED path, and with {@code bothPaths} the RATE_LIMITED one, on the Redis at {@code port}; redis-benchmark's
     * reports kept in {@code dir} ({@value #REPORTS}).
     */
    public static List<Measured> run(Stack stack, RedissonClient redis, int port, int requests, boolean bothPaths,
                                     Path dir) throws IOException, InterruptedException {
        List<String> keys = Keys.purchase(TEST_SALE, 1).stream().map(String::valueOf).toList();
        List<String> evalsha = evalsha(redis.getScript(StringCodec.INSTANCE)
                .scriptLoad(Files.readString(stack.home().resolve("lua/purchase.lua"))), keys);
        String bucket = keys.getLast();
        String now = Long.toString(System.currentTimeMillis());
        redis.getBucket(keys.get(0), StringCodec.INSTANCE).set("1000000000");
        redis.getMap(keys.get(2), StringCodec.INSTANCE).putAll(Map.of("start", "0", "end",
                Long.toString(System.currentTimeMillis() + 86_400_000L)));
        String[] user = createUser(stack, port);
        try {
            List<Measured> m = new ArrayList<>(List.of(benchmark(stack, dir.resolve(REPORTS.replace("*", "queued")),
                    port, "random users (QUEUED path)", requests, user, List.of("-r", "1000000000"), evalsha,
                    bucket.replaceFirst("1$", "__rand_int__"), "1", "3", "__rand_int__", "__rand_int__", now)));
            if (bothPaths) {
                m.add(benchmark(stack, dir.resolve(REPORTS.replace("*", "rate-limited")), port,
                        "one user (RATE_LIMITED path)", requests, user, List.of(), evalsha, bucket, "1", "3", "1",
                        "77", now));
            }
            return m;
        } finally {
            redis.getKeys().delete(keys.toArray(String[]::new));
            if (user != null) {
                redisCli(stack, port, "ACL DELUSER " + user[0]);
            }
        }
    }

    /**
     * {@code EVALSHA sha numkeys} and the sale's keys of {@code keys} (purchase.lua's, as {@link Keys#purchase} lays
     * them out for one buyer): the buyer's bucket, the last key, is left for each benchmark to add.
     */
    static List<String> evalsha(String sha, List<String> keys) {
        List<String> out = new ArrayList<>(List.of("EVALSHA", sha, Integer.toString(keys.size())));
        out.addAll(keys.subList(0, keys.size() - 1));
        return out;
    }

    /** The name and password of a user made for this run; null when Redis has no password. */
    private static String[] createUser(Stack stack, int port) throws IOException, InterruptedException {
        if (stack.redisPassword().isEmpty()) {
            return null;
        }
        SecureRandom random = new SecureRandom();
        String name = "seckill-bench-" + HexFormat.of().toHexDigits(random.nextInt());
        String password = HexFormat.of().formatHex(random.generateSeed(24));
        redisCli(stack, port, "ACL SETUSER " + name + " on >" + password + " resetkeys ~"
                + Keys.stock(TEST_SALE).replaceFirst("stock$", "") + "* resetchannels -@all +@read +@write"
                + " -@dangerous +evalsha");
        return new String[] {name, password};
    }

    /** redis-cli takes the stack's password from REDISCLI_AUTH and the command from stdin, off its command line. */
    private static void redisCli(Stack stack, int port, String command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port));
        pb.environment().put("REDISCLI_AUTH", stack.redisPassword());
        String out = Generators.exec(pb, command + "\n", 120).strip();
        // redis-cli exits 0 on a Redis error too: the answer says.
        if (!out.matches("OK|\\(integer\\) 1|1")) {
            throw new IOException("redis-cli " + command.substring(0, command.indexOf(' ', 4)) + " failed: " + out);
        }
    }

    private static Measured benchmark(Stack stack, Path file, int port, String name, int requests, String[] user,
                                      List<String> options, List<String> evalsha, String... bucketAndArgs)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(options);
        command.addAll(evalsha);
        command.addAll(List.of(bucketAndArgs));
        return Generators.redisBenchmark(stack, file, "redis EVALSHA purchase.lua, " + name, port, requests,
                user == null ? null : user[0], user == null ? null : user[1], command);
    }
}
