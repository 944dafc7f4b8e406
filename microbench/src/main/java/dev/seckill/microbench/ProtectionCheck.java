package dev.seckill.microbench;

import dev.seckill.identity.TokenSigner;
import dev.seckill.protection.Challenges;
import dev.seckill.protection.Protection;
import dev.seckill.protection.ProofOfWork;
import dev.seckill.protection.PurchasePaths;
import dev.seckill.protection.SaleProtection;
import dev.seckill.purchase.LimiterSettings;
import dev.seckill.purchase.RedisStockReserver;
import dev.seckill.redis.ReplicaAcks;
import dev.seckill.redis.ScriptRunner;
import dev.seckill.sale.Sale;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.misc.CompletableFutureWrapper;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A protected sale's in-process costs on the service's classes: the purchase decision unprotected (plainDecision) and
 * with a purchase path (pathCheck: one HMAC-SHA-256 of the path, no lookup), the token check (one HMAC), the
 * purchase.lua call's Java side (scriptCall; Redis stubbed); and what a bot pays for a path, one challenge solved
 * per difficulty ({@link ProofOfWork#solve}, the salts solved and hashes spent as JMH counters).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 300, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 300, timeUnit = TimeUnit.MILLISECONDS)
public class ProtectionCheck {

    private static final String SECRET = "bench-token-secret-of-at-least-32-bytes";
    private final Clock clock = Clock.systemUTC();
    private final Instant now = clock.instant();
    private final PurchasePaths paths = new PurchasePaths(SECRET, Duration.ofSeconds(120), clock);
    private final Protection gate = new Protection(new Challenges(SECRET, Duration.ofSeconds(60), clock), paths,
            (sale, salt, expiresAt) -> true, clock);
    private final Sale plain = new Sale(1, "plain", 100, 10, now.minusSeconds(1), now.plusSeconds(3600));
    private final Sale guarded = new Sale(2, "guarded", 100, 10, now.minusSeconds(1), now.plusSeconds(3600),
            Sale.DEFAULT_PAY_WINDOW_SECONDS, new SaleProtection(SaleProtection.Mode.CHALLENGE, 13));
    private final String path = paths.mint(guarded.id(), 42).path();
    private final TokenSigner signer = new TokenSigner(SECRET, Duration.ofHours(1), clock);
    private final String token = signer.mint(42);
    // Redisson's RScript stubbed where the network would be, answering {QUEUED, stock left} as purchase.lua does.
    private final RedisStockReserver reserver = new RedisStockReserver(new ScriptRunner(stub(RedissonClient.class,
            stub(RScript.class, new CompletableFutureWrapper<Object>(List.of(0L, 9L))))), new LimiterSettings(1, 5),
            ReplicaAcks.none());
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

    /** One difficulty; JMH reports the iteration's hashes and solves beside the time per solve. */
    @AuxCounters(AuxCounters.Type.EVENTS)
    @State(Scope.Thread)
    public static class Work {
        // Not public: JMH counts and resets every public field of an @AuxCounters state, and bits 0 never solves.
        @Param({"8", "10", "12", "14", "16"})
        int bits;
        public long hashes;
        public long solves;
        private long salts;

        @Setup(Level.Iteration)
        public void reset() {
            hashes = 0;
            solves = 0;
        }
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public long solve(Work w) {
        long nonce = ProofOfWork.solve("salt-" + ++w.salts, w.bits); // a fresh salt, as each challenge brings
        w.hashes += nonce + 1;
        w.solves++;
        return nonce;
    }

    /** An instance of {@code type} whose every method answers {@code answer}. */
    private static <T> T stub(Class<T> type, Object answer) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> answer));
    }
}
