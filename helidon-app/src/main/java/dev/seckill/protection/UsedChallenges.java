package dev.seckill.protection;

import java.time.Instant;

/** The record that makes a challenge single-use: the only state of the protection, kept until the challenge expires. */
public interface UsedChallenges {

    /**
     * Marks the challenge with this salt used, until {@code expiresAt}.
     *
     * @return true the first time, false when it was already used
     */
    boolean firstUse(long saleId, String salt, Instant expiresAt);
}
