package dev.seckill.microbench;

import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.seckill.identity.ClaimRules;
import dev.seckill.identity.JwksKeys;
import dev.seckill.identity.TokenCheck;
import dev.seckill.identity.TokenSigner;
import dev.seckill.identity.TokenVerifier;
import dev.seckill.identity.Verification;
import dev.seckill.identity.VerifiedTokens;
import dev.seckill.testkit.ShopKeys;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What checking a sign-in token costs the service on one thread: the service's {@link TokenVerifier} with a shared
 * secret (HS256) and a shop's JWKS (RS256 with RSA 2048, ES256 with P-256), one token of each; and a repeated click,
 * the same RS256 token through {@link VerifiedTokens}, the cache in front of the verifier.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 300, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 300, timeUnit = TimeUnit.MILLISECONDS)
public class TokenVerification {

    private static final String SECRET = "bench-token-secret-of-at-least-32-bytes";

    private final Clock clock = Clock.systemUTC();
    private final RSAKey rsa = ShopKeys.rsa("bench-rs256");
    private final ECKey ec = ShopKeys.ec("bench-es256");
    private final TokenVerifier verifier = new TokenVerifier(SECRET, new JwksKeys(
            () -> new JWKSet(List.<JWK>of(rsa, ec)).toPublicJWKSet(), clock, Duration.ofSeconds(10),
            Duration.ofMinutes(5)), new ClaimRules("", "", "sub", Duration.ofSeconds(60)), clock);
    private final TokenCheck cache = new VerifiedTokens(verifier, 1000, clock);
    private final String hs = new TokenSigner(SECRET, Duration.ofHours(1), clock).mint(42);
    private final String rs = ShopKeys.sign(rsa, claims());
    private final String es = ShopKeys.sign(ec, claims());

    /** As a shop's provider issues them: a subject, issued now, valid an hour. */
    private static JWTClaimsSet claims() {
        Instant now = Instant.now();
        return new JWTClaimsSet.Builder().subject("42").issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofHours(1)))).build();
    }

    /** A benchmark of a refused token would time a refusal: each token must verify. */
    @Setup
    public void everyTokenVerifies() {
        for (String token : List.of(hs, rs, es)) {
            if (!(cache.verify(token) instanceof Verification.Verified)) {
                throw new IllegalStateException("the benchmark's token is refused: " + verifier.verify(token));
            }
        }
    }

    @Benchmark
    public Object hs256() {
        return verifier.verify(hs);
    }

    @Benchmark
    public Object rs256() {
        return verifier.verify(rs);
    }

    @Benchmark
    public Object es256() {
        return verifier.verify(es);
    }

    @Benchmark
    public Object rs256Cached() {
        return cache.verify(rs);
    }
}
