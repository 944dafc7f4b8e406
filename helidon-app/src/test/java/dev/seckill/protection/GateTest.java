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

/** The gate's decisions that depend on time and on the used-challenge record, with fixed clocks. */
class GateTest {

    private static final String SECRET = "unit-test-token-secret-of-32-bytes!";
    private static final Instant START = Instant.parse("2030-01-01T10:00:00Z");
    private static final Sale SALE = new Sale(7, "s", 1, 10, START, START.plusSeconds(600), Sale.DEFAULT_PAY_WINDOW_SECONDS,
            new SaleProtection(SaleProtection.Mode.CHALLENGE, 4));

    private final Set<String> used = new HashSet<>();

    private Gate at(Instant t) {
        Clock clock = Clock.fixed(t, ZoneOffset.UTC);
        return new Gate(new Challenges(SECRET, Duration.ofSeconds(60), clock),
                new PurchasePaths(SECRET, Duration.ofSeconds(120), clock), (sale, salt, exp) -> used.add(sale + salt), clock);
    }

    @Test
    void beforeTheStartNoChallengeIsIssuedAndTheWaitIsTold() {
        GateOutcome o = at(START.minusMillis(1500)).challenge(SALE, 42);
        assertEquals(new GateOutcome.NotStarted(START, 1500), o);
        assertInstanceOf(GateOutcome.NotStarted.class, at(START.minusSeconds(1)).path(SALE, 42, null, null));
    }

    @Test
    void afterTheEndNothingIsIssued() {
        assertInstanceOf(GateOutcome.SaleEnded.class, at(SALE.endsAt()).challenge(SALE, 42));
        assertInstanceOf(GateOutcome.SaleEnded.class, at(SALE.endsAt()).path(SALE, 42, null, null));
    }

    @Test
    void aSolvedChallengeBuysOnePathThenIsUsed() {
        Gate gate = at(START.plusSeconds(1));
        Challenges.Challenge c = ((GateOutcome.ChallengeIssued) gate.challenge(SALE, 42)).challenge();
        String nonce = Solver.solve(c.salt(), 4);
        GateOutcome.PathIssued p = assertInstanceOf(GateOutcome.PathIssued.class, gate.path(SALE, 42, c.challengeId(), nonce));
        assertEquals(Gate.PathCheck.PASS, gate.purchase(SALE, 42, p.path().path()));
        assertInstanceOf(GateOutcome.ChallengeUsed.class, gate.path(SALE, 42, c.challengeId(), nonce));
    }

    @Test
    void anExpiredChallengeIsExpiredAndLeavesNoRecord() {
        Challenges.Challenge c = ((GateOutcome.ChallengeIssued) at(START.plusSeconds(1)).challenge(SALE, 42)).challenge();
        GateOutcome o = at(c.expiresAt()).path(SALE, 42, c.challengeId(), Solver.solve(c.salt(), 4));
        assertInstanceOf(GateOutcome.ChallengeExpired.class, o);
        assertEquals(Set.of(), used);
    }

    @Test
    void aWrongNonceFailsWithoutUsingTheChallenge() {
        Gate gate = at(START.plusSeconds(1));
        Challenges.Challenge c = ((GateOutcome.ChallengeIssued) gate.challenge(SALE, 42)).challenge();
        assertInstanceOf(GateOutcome.ChallengeFailed.class, gate.path(SALE, 42, c.challengeId(), Solver.wrong(c.salt(), 4)));
        assertInstanceOf(GateOutcome.PathIssued.class, gate.path(SALE, 42, c.challengeId(), Solver.solve(c.salt(), 4)));
    }

    @Test
    void anUnprotectedSaleHasNoChallengeNoPathAndRefusesAnyPath() {
        Sale plain = new Sale(8, "p", 1, 10, START, START.plusSeconds(600));
        Gate gate = at(START.plusSeconds(1));
        assertEquals(new GateOutcome.NotProtected("NO_CHALLENGE"), gate.challenge(plain, 42));
        assertEquals(new GateOutcome.NotProtected("NOT_PROTECTED"), gate.path(plain, 42, null, null));
        assertEquals(Gate.PathCheck.PASS, gate.purchase(plain, 42, null));
        assertEquals(Gate.PathCheck.INVALID, gate.purchase(plain, 42, "A".repeat(32)));
    }
}
