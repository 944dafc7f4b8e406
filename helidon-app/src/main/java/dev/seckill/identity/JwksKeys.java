package dev.seckill.identity;

import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The identity provider's public keys, from its JWKS URL: fetched at start, then kept. A token naming a key the set
 * does not hold (a rotation) fetches it again, and so does the first token after the set is {@code maxAge} old (a
 * removed key stops being trusted); either way at most one fetch per {@code minInterval}, whatever the tokens
 * claim, so made-up key ids cannot flood the provider. A failed fetch keeps the keys held (logged); one at start
 * leaves none, and the first token that needs a key tries again.
 */
public final class JwksKeys {

    private static final Logger LOG = LoggerFactory.getLogger(JwksKeys.class);
    /** A JWKS is a few KiB; a larger answer is not one. */
    private static final int MAX_BYTES = 512 * 1024;

    /** Where the set comes from (the URL; a test's own source). */
    @FunctionalInterface
    public interface Source {
        JWKSet fetch() throws IOException, ParseException;
    }

    private final Source source;
    private final Clock clock;
    private final Duration minInterval;
    private final Duration maxAge;
    private final ReentrantLock fetching = new ReentrantLock();
    private volatile JWKSet keys = new JWKSet();
    /** The last fetch that succeeded, and the last one tried; null before the first. */
    private volatile Instant fetchedAt;
    private volatile Instant triedAt;
    private final AtomicLong fetched = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    public JwksKeys(Source source, Clock clock, Duration minInterval, Duration maxAge) {
        this.source = source;
        this.clock = clock;
        this.minInterval = minInterval;
        this.maxAge = maxAge;
    }

    /** The keys at {@code url}, fetched over HTTP(S) with {@code timeout} to connect and to read. */
    public static JwksKeys at(String url, Duration timeout, Duration minInterval, Duration maxAge, Clock clock) {
        URI uri;
        try {
            uri = URI.create(url);
            uri.toURL();
        } catch (IllegalArgumentException | java.net.MalformedURLException e) {
            throw new IllegalArgumentException("seckill.jwt.jwks.url (SECKILL_JWT_JWKS_URL) is not a URL: " + url);
        }
        if (!"https".equals(uri.getScheme()) && !"http".equals(uri.getScheme())) {
            throw new IllegalArgumentException("seckill.jwt.jwks.url (SECKILL_JWT_JWKS_URL) must be http(s): " + url);
        }
        int ms = (int) timeout.toMillis();
        DefaultResourceRetriever http = new DefaultResourceRetriever(ms, ms, MAX_BYTES);
        return new JwksKeys(() -> JWKSet.parse(http.retrieveResource(uri.toURL()).getContent()), clock,
                minInterval, maxAge);
    }

    /** The first fetch, at start. */
    public void load() {
        fetching.lock();
        try {
            fetch();
        } finally {
            fetching.unlock();
        }
    }

    /**
     * The signing keys the header may mean: of its algorithm's type (and curve), its {@code kid} (any, without one),
     * for signatures. Fetches the set again first if it holds none, or is old, and the last fetch is old enough.
     */
    List<JWK> candidates(JWSHeader header) {
        JWKSelector selector = new JWKSelector(JWKMatcher.forJWSHeader(header));
        List<JWK> found = selector.select(keys);
        if (found.isEmpty()) {
            // Wait for a fetch in progress: it may be bringing this very key.
            fetching.lock();
        } else if (!stale() || !fetching.tryLock()) {
            // Old keys meanwhile, rather than every buyer waiting for the provider.
            return found;
        }
        try {
            if (mayFetch()) {
                fetch();
            }
        } finally {
            fetching.unlock();
        }
        return selector.select(keys);
    }

    private boolean stale() {
        Instant at = fetchedAt;
        return (at == null || !clock.instant().isBefore(at.plus(maxAge))) && mayFetch();
    }

    private boolean mayFetch() {
        Instant at = triedAt;
        return at == null || !clock.instant().isBefore(at.plus(minInterval));
    }

    /** Fetches that brought a set, for the metric {@code seckill.jwks.fetches{outcome="ok"}}. */
    public long fetches() {
        return fetched.get();
    }

    /** Fetches that failed (the held keys kept), {@code seckill.jwks.fetches{outcome="failed"}}. */
    public long failures() {
        return failed.get();
    }

    /** Under the lock. */
    private void fetch() {
        triedAt = clock.instant();
        try {
            // Only the public halves, should the set hold more.
            keys = source.fetch().toPublicJWKSet();
            fetchedAt = triedAt;
            fetched.incrementAndGet();
        } catch (IOException | ParseException | RuntimeException e) {
            failed.incrementAndGet();
            LOG.warn("failed to fetch the JWKS (seckill.jwt.jwks.url); keeping "
                    + keys.size() + " keys: " + e.getMessage(), e);
        }
    }
}
