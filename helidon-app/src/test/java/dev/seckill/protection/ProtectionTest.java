package dev.seckill.protection;

import dev.seckill.sale.Sale;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** The protection's decisions that depend on time and on the used-challenge record, with fixed clocks. */
class ProtectionTest {

    private static final String SECRET = "unit-test-token-secret-of-32-bytes!";
    private static final Instant START = Instant.parse("2030-01-01T10:00:00Z");
    private static final Sale SALE = new Sale(7, "s", 1, 10, START, START.plusSeconds(600), Sale.DEFAULT_PAY_WINDOW_SECONDS,
            new SaleProtection(SaleProtection.Mode.CHALLENGE, 4));

    private final Set<String> used = new HashSet<>();

    private Protection at(Instant t) {
        Clock clock = Clock.fixed(t, ZoneOffset.UTC);
        return new Protection(new Challenges(SECRET, Duration.ofSeconds(60), clock),
                new PurchasePaths(SECRET, Duration.ofSeconds(120), clock), (sale, salt, exp) -> used.add(sale + salt), clock);
    }

    @Test
    void beforeTheStartNoChallengeIsIssuedAndTheWaitIsTold() {
        ProtectionOutcome o = at(START.minusMillis(1500)).challenge(SALE, 42);
        assertEquals(new ProtectionOutcome.NotStarted(START, 1500), o);
        assertInstanceOf(ProtectionOutcome.NotStarted.class, at(START.minusSeconds(1)).path(SALE, 42, null, null));
    }

    @Test
    void afterTheEndNothingIsIssued() {
        assertInstanceOf(ProtectionOutcome.SaleEnded.class, at(SALE.endsAt()).challenge(SALE, 42));
        assertInstanceOf(ProtectionOutcome.SaleEnded.class, at(SALE.endsAt()).path(SALE, 42, null, null));
    }

    @Test
    void aSolvedChallengeBuysOnePathThenIsUsed() {
        Protection protection = at(START.plusSeconds(1));
        Challenges.Challenge c = ((ProtectionOutcome.ChallengeIssued) protection.challenge(SALE, 42)).challenge();
        String nonce = Solver.solve(c.salt(), 4);
        ProtectionOutcome.PathIssued p = assertInstanceOf(ProtectionOutcome.PathIssued.class, protection.path(SALE, 42, c.challengeId(), nonce));
        assertEquals(Protection.PathCheck.PASS, protection.purchase(SALE, 42, p.path().path()));
        assertInstanceOf(ProtectionOutcome.ChallengeUsed.class, protection.path(SALE, 42, c.challengeId(), nonce));
    }

    @Test
    void anExpiredChallengeIsExpiredAndLeavesNoRecord() {
        Challenges.Challenge c = ((ProtectionOutcome.ChallengeIssued) at(START.plusSeconds(1)).challenge(SALE, 42)).challenge();
        ProtectionOutcome o = at(c.expiresAt()).path(SALE, 42, c.challengeId(), Solver.solve(c.salt(), 4));
        assertInstanceOf(ProtectionOutcome.ChallengeExpired.class, o);
        assertEquals(Set.of(), used);
    }

    @Test
    void aWrongNonceFailsWithoutUsingTheChallenge() {
        Protection protection = at(START.plusSeconds(1));
        Challenges.Challenge c = ((ProtectionOutcome.ChallengeIssued) protection.challenge(SALE, 42)).challenge();
        assertInstanceOf(ProtectionOutcome.ChallengeFailed.class, protection.path(SALE, 42, c.challengeId(), Solver.wrong(c.salt(), 4)));
        assertInstanceOf(ProtectionOutcome.PathIssued.class, protection.path(SALE, 42, c.challengeId(), Solver.solve(c.salt(), 4)));
    }

    @Test
    void anUnprotectedSaleHasNoChallengeNoPathAndRefusesAnyPath() {
        Sale plain = new Sale(8, "p", 1, 10, START, START.plusSeconds(600));
        Protection protection = at(START.plusSeconds(1));
        assertEquals(new ProtectionOutcome.NotProtected("NO_CHALLENGE"), protection.challenge(plain, 42));
        assertEquals(new ProtectionOutcome.NotProtected("NOT_PROTECTED"), protection.path(plain, 42, null, null));
        assertEquals(Protection.PathCheck.PASS, protection.purchase(plain, 42, null));
        assertEquals(Protection.PathCheck.INVALID, protection.purchase(plain, 42, "A".repeat(32)));
    }
}
