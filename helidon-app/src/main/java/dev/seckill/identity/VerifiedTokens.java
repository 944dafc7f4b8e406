package dev.seckill.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;

import java.time.Clock;
import java.time.Duration;

/**
 * The tokens verified lately, keyed by the token itself, so that a buyer's repeated clicks cost one signature check:
 * at most {@code size} of them (least used first out), none kept past its {@code exp}. Only verified tokens are
 * kept; a refused one is checked again each time (it costs no key fetch more than the rate allows).
 * Known limit: a token verified with a key that the provider then removes stays good here until its {@code exp}.
 * Its meters ({@link #bindTo}) are Micrometer's for a Caffeine cache, {@code cache="verified-tokens"}: a miss is a
 * signature check, a hit a click that cost none.
 */
public final class VerifiedTokens implements TokenCheck {

    private final TokenCheck verifier;
    private final Clock clock;
    private final Cache<String, Verification.Verified> cache;

    public VerifiedTokens(TokenCheck verifier, long size, Clock clock) {
        this.verifier = verifier;
        this.clock = clock;
        this.cache = Caffeine.newBuilder()
                .maximumSize(size)
                .expireAfter(Expiry.<String, Verification.Verified>creating((token, v) -> untilExpiry(v)))
                // Evictions on the caller's thread: no pool thread for a map this cheap to tidy.
                .executor(Runnable::run)
                .recordStats()
                .build();
    }

    /** {@code cache_gets_total{cache="verified-tokens",result="hit"|"miss"}}, puts, evictions and size. */
    public void bindTo(MeterRegistry registry) {
        CaffeineCacheMetrics.monitor(registry, cache, "verified-tokens");
    }

    @Override
    public Verification verify(String token) {
        Verification.Verified kept = cache.getIfPresent(token);
        // The clock decides, not only the cache's own timer: a test's fixed clock, or an entry not yet swept.
        if (kept != null && untilExpiry(kept).isPositive()) {
            return kept;
        }
        Verification v = verifier.verify(token);
        if (v instanceof Verification.Verified ok && untilExpiry(ok).isPositive()) {
            cache.put(token, ok);
        }
        return v;
    }

    /** How many tokens it holds now (after the cache's pending evictions). */
    long size() {
        cache.cleanUp();
        return cache.estimatedSize();
    }

    private Duration untilExpiry(Verification.Verified v) {
        Duration d = Duration.between(clock.instant(), v.expires());
        return d.isNegative() ? Duration.ZERO : d;
    }
}
