package dev.seckill.protection;

import dev.seckill.sale.Sale;

import java.time.Clock;
import java.time.Instant;

/**
 * The protected sales' front desk, without HTTP: issues challenges and purchase paths by the sale's protection and
 * time window, and decides whether a purchase may pass. Issued only while the sale runs by the clock; whether it is
 * sold out is the purchase's answer (Redis is not asked here).
 */
public final class Protection {

    private final Challenges challenges;
    private final PurchasePaths paths;
    private final UsedChallenges used;
    private final Clock clock;

    public Protection(Challenges challenges, PurchasePaths paths, UsedChallenges used, Clock clock) {
        this.challenges = challenges;
        this.paths = paths;
        this.used = used;
        this.clock = clock;
    }

    public ProtectionOutcome challenge(Sale sale, long userId) {
        if (sale.protection().mode() != SaleProtection.Mode.CHALLENGE) {
            return new ProtectionOutcome.NotProtected("NO_CHALLENGE");
        }
        ProtectionOutcome closed = closed(sale);
        return closed != null ? closed
                : new ProtectionOutcome.ChallengeIssued(challenges.issue(sale.id(), userId, sale.protection().bits()));
    }

    /** For a challenge sale, {@code challengeId} and {@code nonce} are the solution; a path sale ignores them. */
    public ProtectionOutcome path(Sale sale, long userId, String challengeId, String nonce) {
        SaleProtection p = sale.protection();
        if (!p.guarded()) {
            return new ProtectionOutcome.NotProtected("NOT_PROTECTED");
        }
        ProtectionOutcome closed = closed(sale);
        if (closed != null) {
            return closed;
        }
        if (p.mode() == SaleProtection.Mode.CHALLENGE) {
            Challenges.Checked c = challenges.check(sale.id(), userId, p.bits(), challengeId, nonce);
            switch (c.verdict()) {
                case FAILED -> {
                    return new ProtectionOutcome.ChallengeFailed();
                }
                case EXPIRED -> {
                    return new ProtectionOutcome.ChallengeExpired();
                }
                case SOLVED -> {
                    // Last, after every free check: only a real solution costs a Redis write.
                    if (!used.firstUse(sale.id(), c.salt(), c.expiresAt())) {
                        return new ProtectionOutcome.ChallengeUsed();
                    }
                }
            }
        }
        return new ProtectionOutcome.PathIssued(paths.mint(sale.id(), userId));
    }

    /** Whether a purchase through {@code path} (null: the plain route) may go on to Redis. */
    public PathCheck purchase(Sale sale, long userId, String path) {
        if (path == null) {
            return sale.protection().guarded() ? PathCheck.REQUIRED : PathCheck.PASS;
        }
        // An unprotected sale never issued a path, so any path for it is as invalid as a forged one.
        return sale.protection().guarded() && paths.valid(sale.id(), userId, path) ? PathCheck.PASS : PathCheck.INVALID;
    }

    public enum PathCheck { PASS, REQUIRED, INVALID }

    private ProtectionOutcome closed(Sale sale) {
        Instant now = clock.instant();
        if (now.isBefore(sale.startsAt())) {
            return new ProtectionOutcome.NotStarted(sale.startsAt(), sale.startsAt().toEpochMilli() - now.toEpochMilli());
        }
        return now.isBefore(sale.endsAt()) ? null : new ProtectionOutcome.SaleEnded();
    }
}
