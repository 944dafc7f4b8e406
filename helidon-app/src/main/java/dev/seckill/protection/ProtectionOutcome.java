package dev.seckill.protection;

import dev.seckill.identity.TokenRefusal;

import java.time.Instant;

/** What a challenge or path request comes to; answered once, by the switch of {@link ProtectionService}. */
public sealed interface ProtectionOutcome {

    /** 200: a challenge to solve. */
    record ChallengeIssued(Challenges.Challenge challenge) implements ProtectionOutcome {
    }

    /** 200: the purchase path. */
    record PathIssued(PurchasePaths.Path path) implements ProtectionOutcome {
    }

    /** 404. */
    record SaleNotFound() implements ProtectionOutcome {
    }

    /** 401: why the token was refused. */
    record Unauthenticated(TokenRefusal reason) implements ProtectionOutcome {
    }

    /** 409: the sale has no challenge (protection none or path), or no path at all (none). */
    record NotProtected(String code) implements ProtectionOutcome {
    }

    /** 409 with Retry-After: before the start nothing is issued, so nothing can be prepared. */
    record NotStarted(Instant startsAt, long waitMillis) implements ProtectionOutcome {
    }

    /** 410. */
    record SaleEnded() implements ProtectionOutcome {
    }

    /** 400: a wrong nonce, or an id that is forged or was issued to another user or for another sale. */
    record ChallengeFailed() implements ProtectionOutcome {
    }

    /** 409: the challenge already bought a path. */
    record ChallengeUsed() implements ProtectionOutcome {
    }

    /** 410. */
    record ChallengeExpired() implements ProtectionOutcome {
    }
}
