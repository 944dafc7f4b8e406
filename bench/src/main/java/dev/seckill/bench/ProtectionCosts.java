package dev.seckill.bench;

import dev.seckill.identity.TokenSigner;
import dev.seckill.protection.Challenges;
import dev.seckill.protection.Gate;
import dev.seckill.protection.PurchasePaths;
import dev.seckill.protection.SaleProtection;
import dev.seckill.purchase.LimiterSettings;
import dev.seckill.purchase.RedisStockReserver;
import dev.seckill.redis.ReplicaAcks;
import dev.seckill.redis.ScriptRunner;
import dev.seckill.sale.Sale;
import org.openjdk.jmh.annotations.*;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;

import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * JMH benchmarks of a protected sale's in-process costs on the service's own classes, and of a bot's solve time per
 * difficulty; {@link ProtectionBench} runs them.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProtectionCosts {

    private static final String SECRET = "bench-token-secret-of-at-least-32-bytes";
    private final Clock clock = Clock.systemUTC();
    private final Instant now = clock.instant();
    private final PurchasePaths paths = new PurchasePaths(SECRET, Duration.ofSeconds(120), clock);
    private final Gate gate = new Gate(new Challenges(SECRET, Duration.ofSeconds(60), clock), paths,
            (sale, salt, expiresAt) -> true, clock);
    private final Sale plain = new Sale(1, "plain", 100, 10, now.minusSeconds(1), now.plusSeconds(3600));
    private final Sale guarded = new Sale(2, "guarded", 100, 10, now.minusSeconds(1), now.plusSeconds(3600),
            Sale.DEFAULT_PAY_WINDOW_SECONDS, new SaleProtection(SaleProtection.Mode.CHALLENGE, 13));
    private final String path = paths.mint(guarded.id(), 42).path();
    private final TokenSigner signer = new TokenSigner(SECRET, Duration.ofHours(1), clock);
    private final String token = signer.mint(42);
    // Redisson's RScript stubbed where the network would be, answering {QUEUED, stock left} as purchase.lua does.
    private final RedisStockReserver reserver = new RedisStockReserver(new ScriptRunner(stub(RedissonClient.class,
            stub(RScript.class, List.of(0L, 9L)))), new LimiterSettings(1, 5), ReplicaAcks.none());
    private long orderId;

    @Benchmark
    public Object plainDecision() {
        return gate.purchase(plain, 42, null);
    }

    @Benchmark
    public Object pathCheck() {
        return gate.purchase(guarded, 42, path);
    }

    @Benchmark
    public Object tokenCheck() {
        return signer.verify(token);
    }

    @Benchmark
    public Object scriptCall() {
        return reserver.reserve(plain, 42, ++orderId, System.currentTimeMillis());
    }

    /** One difficulty, with the hashes and solves of an iteration, which JMH reports beside the time per solve. */
    @AuxCounters(AuxCounters.Type.EVENTS)
    @State(Scope.Thread)
    public static class Work {
        @Param({"8", "10", "12", "14", "16"})
        int bits;
        public long hashes;
        public long solves;
        private long salts;
        private MessageDigest sha;

        @Setup(Level.Iteration)
        public void reset() throws NoSuchAlgorithmException {
            hashes = 0;
            solves = 0;
            sha = MessageDigest.getInstance("SHA-256");
        }
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public long solve(Work w) {
        long nonce = solve(w.sha, "salt-" + ++w.salts, w.bits); // a fresh salt, as each challenge brings
        w.hashes += nonce + 1;
        w.solves++;
        return nonce;
    }

    /** The smallest nonce solving {@code salt} at {@code bits} (1..63: {@code >>> -bits} keeps the top bits). */
    static long solve(MessageDigest sha, String salt, int bits) {
        String prefix = salt + ":";
        long n = 0;
        while (ByteBuffer.wrap(sha.digest((prefix + n).getBytes(StandardCharsets.UTF_8))).getLong() >>> -bits != 0) {
            n++;
        }
        return n;
    }

    /** An instance of {@code type} whose every method answers {@code answer}. */
    private static <T> T stub(Class<T> type, Object answer) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> answer));
    }
}
