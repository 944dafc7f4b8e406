package dev.seckill.identity;

import dev.seckill.testkit.TestClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.seckill.identity.TestTokens.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A buyer's repeated clicks cost one signature check; no verified token is remembered past its expiry. */
class VerifiedTokensTest {

    private final TestClock clock = new TestClock(NOW);
    private final AtomicInteger checks = new AtomicInteger();
    /** Every token "good-N" is user N, expiring 60 s from NOW; any other is refused. */
    private final TokenCheck counting = token -> {
        checks.incrementAndGet();
        return token.startsWith("good-")
                ? new Verification.Verified(new User(Long.parseLong(token.substring(5))), NOW.plusSeconds(60))
                : new Verification.Refused(TokenRefusal.BAD_SIGNATURE);
    };
    private final VerifiedTokens tokens = new VerifiedTokens(counting, 1000, clock);

    @Test
    void repeatedChecksOfOneTokenCostOneSignatureCheck() {
        for (int i = 0; i < 100; i++) {
            assertEquals(new User(7), tokens.verify("good-7").signedIn().orElseThrow());
        }
        assertEquals(1, checks.get());
    }

    @Test
    void itsMetersCountSignatureChecksAsMissesAndFreeClicksAsHits() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        tokens.bindTo(registry);
        for (int i = 0; i < 5; i++) {
            tokens.verify("good-7");
        }
        tokens.verify("good-8");
        assertEquals(2, checks.get());
        assertEquals(2.0, gets(registry, "miss"));
        assertEquals(4.0, gets(registry, "hit"));
    }

    private static double gets(SimpleMeterRegistry registry, String result) {
        return registry.get("cache.gets").tag("cache", "verified-tokens").tag("result", result).functionCounter()
                .count();
    }

    @Test
    void aTokenIsNotRememberedPastItsExpiry() {
        tokens.verify("good-7");
        clock.advance(Duration.ofSeconds(59));
        tokens.verify("good-7");
        assertEquals(1, checks.get());
        clock.advance(Duration.ofSeconds(1));
        tokens.verify("good-7");
        assertEquals(2, checks.get(), "at its exp the token is checked again (the verifier decides on the skew)");
    }

    @Test
    void refusedTokensAreCheckedEachTime() {
        for (int i = 0; i < 3; i++) {
            assertEquals(new Verification.Refused(TokenRefusal.BAD_SIGNATURE), tokens.verify("forged"));
        }
        assertEquals(3, checks.get());
    }

    @Test
    void theCacheHoldsAtMostItsSize() {
        VerifiedTokens small = new VerifiedTokens(counting, 10, clock);
        for (int i = 1; i <= 100; i++) {
            small.verify("good-" + i);
        }
        assertEquals(10, small.size(), "least used first out");
    }
}
