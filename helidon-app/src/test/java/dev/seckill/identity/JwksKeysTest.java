package dev.seckill.identity;

import dev.seckill.testkit.TestClock;
import dev.seckill.testkit.ShopKeys;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static dev.seckill.identity.TestTokens.NOW;
import static dev.seckill.identity.TestTokens.claims;
import static dev.seckill.testkit.ShopKeys.sign;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The provider's keys: fetched once at start, fetched again for a key id the set does not hold (a rotation, no
 * restart) and once the set is old, never more than once per interval, and kept when a fetch fails.
 */
class JwksKeysTest {

    private static final RSAKey FIRST = ShopKeys.rsa("2030-01");
    private static final ECKey NEXT = ShopKeys.ec("2030-02");

    private final TestClock clock = new TestClock(NOW);
    private final AtomicReference<List<JWK>> served = new AtomicReference<>(List.of(FIRST.toPublicJWK()));
    private final AtomicInteger fetches = new AtomicInteger();
    private volatile boolean down;
    private final JwksKeys keys = new JwksKeys(() -> {
        fetches.incrementAndGet();
        if (down) {
            throw new IOException("connection refused");
        }
        return new JWKSet(served.get());
    }, clock, Duration.ofSeconds(10), Duration.ofSeconds(300));
    private final TokenVerifier verifier = new TokenVerifier("", keys, ClaimRules.minted(), clock);

    private boolean accepted(JWK key) {
        return verifier.verify(sign(key, claims("42").build())).signedIn().isPresent();
    }

    @Test
    void theSetIsFetchedAtStartAndNotAgainForKeysItHolds() {
        keys.load();
        for (int i = 0; i < 50; i++) {
            assertTrue(accepted(FIRST));
        }
        assertEquals(1, fetches.get());
    }

    @Test
    void aTokenOfANewKeyIdFetchesTheSetAgainSoARotationNeedsNoRestart() {
        keys.load();
        clock.advance(Duration.ofSeconds(10));
        served.set(List.of(FIRST.toPublicJWK(), NEXT.toPublicJWK()));

        assertTrue(accepted(NEXT));
        assertTrue(accepted(FIRST));
        assertEquals(2, fetches.get());
    }

    @Test
    void unknownKeyIdsFetchAtMostOncePerInterval() {
        keys.load();
        for (int i = 0; i < 20; i++) {
            assertEquals(new Verification.Refused(TokenRefusal.UNKNOWN_KEY),
                    verifier.verify(sign(ShopKeys.ec("made-up-" + i), claims("42").build())));
        }
        assertEquals(1, fetches.get(), "the start's fetch is less than an interval ago");

        clock.advance(Duration.ofSeconds(10));
        served.set(List.of(NEXT.toPublicJWK()));
        assertTrue(accepted(NEXT), "an interval later, the next unknown key id fetches");
        for (int i = 0; i < 20; i++) {
            verifier.verify(sign(ShopKeys.ec("made-up-" + i), claims("42").build()));
        }
        assertEquals(2, fetches.get());
    }

    @Test
    void aFailedFetchAtStartIsTriedAgainByTheFirstTokenThatNeedsAKey() {
        down = true;
        keys.load();
        down = false;
        assertFalse(accepted(FIRST), "within the interval of the failed fetch");
        clock.advance(Duration.ofSeconds(10));
        assertTrue(accepted(FIRST));
        assertEquals(2, fetches.get());
    }

    @Test
    void aFailedFetchKeepsTheKeysHeld() {
        keys.load();
        down = true;
        clock.advance(Duration.ofSeconds(400));
        assertTrue(accepted(FIRST), "the set is old, its fetch fails: the held keys still count");
        assertEquals(2, fetches.get());
    }

    @Test
    void aSetOlderThanItsMaxAgeIsFetchedAgainSoARemovedKeyStopsCounting() {
        keys.load();
        served.set(List.of(NEXT.toPublicJWK()));
        clock.advance(Duration.ofSeconds(299));
        assertTrue(accepted(FIRST));
        clock.advance(Duration.ofSeconds(1));
        assertFalse(accepted(FIRST), "the provider removed it");
        assertTrue(accepted(NEXT));
        assertEquals(2, fetches.get());
    }

    @Test
    void onlyThePublicHalvesOfTheServedKeysAreKept() {
        served.set(List.of(FIRST));
        keys.load();
        assertTrue(keys.candidates(new com.nimbusds.jose.JWSHeader.Builder(com.nimbusds.jose.JWSAlgorithm.RS256)
                .keyID("2030-01").build()).stream().noneMatch(JWK::isPrivate));
    }
}
