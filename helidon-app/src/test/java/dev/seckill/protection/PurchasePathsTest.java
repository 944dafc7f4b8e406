package dev.seckill.protection;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PurchasePathsTest {

    private static final String SECRET = "unit-test-token-secret-of-32-bytes!";
    private static final Instant NOW = Instant.parse("2030-01-01T10:00:00Z");
    private static final Duration TTL = Duration.ofSeconds(120);

    private static PurchasePaths at(Instant t) {
        return new PurchasePaths(SECRET, TTL, Clock.fixed(t, ZoneOffset.UTC));
    }

    private final PurchasePaths paths = at(NOW);

    @Test
    void aPathIsThirtyTwoUrlSafeCharactersAndExpiresAfterItsTtl() {
        PurchasePaths.Path p = paths.mint(7, 42);
        assertTrue(PurchasePaths.SYNTAX.matcher(p.path()).matches(), p.path());
        assertEquals(NOW.plus(TTL), p.expiresAt());
    }

    @Test
    void aPathBuysOnlyForItsUserAndSale() {
        String p = paths.mint(7, 42).path();
        assertTrue(paths.valid(7, 42, p));
        assertFalse(paths.valid(7, 43, p), "another user's path");
        assertFalse(paths.valid(8, 42, p), "a path for another sale");
    }

    @Test
    void aPathStopsWorkingAtItsExpiry() {
        String p = paths.mint(7, 42).path();
        assertTrue(at(NOW.plus(TTL).minusSeconds(1)).valid(7, 42, p));
        assertFalse(at(NOW.plus(TTL)).valid(7, 42, p));
    }

    @Test
    void aTamperedForgedOrMalformedPathIsInvalid() {
        String p = paths.mint(7, 42).path();
        char last = p.charAt(p.length() - 1);
        String tampered = p.substring(0, p.length() - 1) + (last == 'A' ? 'B' : 'A');
        assertFalse(paths.valid(7, 42, tampered));
        PurchasePaths otherKey = new PurchasePaths("another-secret-of-at-least-32-bytes!!", TTL, Clock.fixed(NOW, ZoneOffset.UTC));
        assertFalse(paths.valid(7, 42, otherKey.mint(7, 42).path()), "a path made with another secret");
        assertFalse(paths.valid(7, 42, null));
        assertFalse(paths.valid(7, 42, p + "A"));
        assertFalse(paths.valid(7, 42, p.substring(1)));
        assertFalse(paths.valid(7, 42, p.replace(p.charAt(3), '.')));
    }

    @Test
    void pathsAndChallengesUseSeparateKeysDerivedFromTheSecret() {
        byte[] path = new KeyDerivation(SECRET, "seckill/purchase-path/v1").mac("x");
        byte[] challenge = new KeyDerivation(SECRET, "seckill/challenge/v1").mac("x");
        assertNotEquals(java.util.HexFormat.of().formatHex(path), java.util.HexFormat.of().formatHex(challenge));
    }
}
