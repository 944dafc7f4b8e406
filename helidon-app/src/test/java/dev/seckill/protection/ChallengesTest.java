package dev.seckill.protection;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChallengesTest {

    private static final String SECRET = "unit-test-token-secret-of-32-bytes!";
    private static final Instant NOW = Instant.parse("2030-01-01T10:00:00Z");
    private static final Duration TTL = Duration.ofSeconds(60);
    private static final int BITS = 6;

    private static Challenges at(Instant t) {
        return new Challenges(SECRET, TTL, Clock.fixed(t, ZoneOffset.UTC));
    }

    private final Challenges challenges = at(NOW);
    private final Challenges.Challenge c = challenges.issue(7, 42, BITS);
    private final String nonce = Solver.solve(c.salt(), BITS);

    @Test
    void aChallengeCarriesAFreshSaltItsDifficultyAndExpiry() {
        assertEquals(BITS, c.bits());
        assertEquals(NOW.plus(TTL), c.expiresAt());
        assertTrue(c.challengeId().startsWith(c.salt() + "."));
        assertNotEquals(c.salt(), challenges.issue(7, 42, BITS).salt(), "salts are random per challenge");
    }

    @Test
    void aSolutionIsSolvedWithTheSaltAndExpiryForTheUsedRecord() {
        Challenges.Checked checked = challenges.check(7, 42, BITS, c.challengeId(), nonce);
        assertEquals(new Challenges.Checked(Challenges.Verdict.SOLVED, c.salt(), c.expiresAt()), checked);
    }

    @Test
    void aWrongNonceFails() {
        assertEquals(Challenges.Verdict.FAILED,
                challenges.check(7, 42, BITS, c.challengeId(), Solver.wrong(c.salt(), BITS)).verdict());
        assertEquals(Challenges.Verdict.FAILED, challenges.check(7, 42, BITS, c.challengeId(), null).verdict());
    }

    @Test
    void anotherUsersOrSalesOrDifficultysChallengeFails() {
        assertEquals(Challenges.Verdict.FAILED, challenges.check(7, 43, BITS, c.challengeId(), nonce).verdict());
        assertEquals(Challenges.Verdict.FAILED, challenges.check(8, 42, BITS, c.challengeId(), nonce).verdict());
        assertEquals(Challenges.Verdict.FAILED, challenges.check(7, 42, BITS + 1, c.challengeId(), nonce).verdict());
    }

    @Test
    void aForgedIdFailsEvenWithAValidSolutionOfItsSalt() {
        String salt = "AAAAAAAAAAAAAAAAAAAAAA";
        String forged = salt + "." + NOW.plusSeconds(30).toEpochMilli() + "." + "BBBBBBBBBBBBBBBBBBBBBB";
        assertEquals(Challenges.Verdict.FAILED,
                challenges.check(7, 42, BITS, forged, Solver.solve(salt, BITS)).verdict());
        assertEquals(Challenges.Verdict.FAILED, challenges.check(7, 42, BITS, "garbage", nonce).verdict());
        assertEquals(Challenges.Verdict.FAILED, challenges.check(7, 42, BITS, null, nonce).verdict());
        String later = c.challengeId().replace("." + c.expiresAt().toEpochMilli() + ".",
                "." + c.expiresAt().plusSeconds(3600).toEpochMilli() + ".");
        assertEquals(Challenges.Verdict.FAILED, challenges.check(7, 42, BITS, later, nonce).verdict(),
                "an expiry pushed back breaks the MAC");
    }

    @Test
    void aChallengeExpiresAtItsExpiryWhateverTheNonce() {
        assertEquals(Challenges.Verdict.SOLVED,
                at(c.expiresAt().minusMillis(1)).check(7, 42, BITS, c.challengeId(), nonce).verdict());
        assertEquals(Challenges.Verdict.EXPIRED, at(c.expiresAt()).check(7, 42, BITS, c.challengeId(), nonce).verdict());
        assertEquals(Challenges.Verdict.EXPIRED,
                at(c.expiresAt()).check(7, 42, BITS, c.challengeId(), Solver.wrong(c.salt(), BITS)).verdict());
    }
}
