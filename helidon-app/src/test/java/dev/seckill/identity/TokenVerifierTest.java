package dev.seckill.identity;

import dev.seckill.testkit.TestClock;
import dev.seckill.testkit.ShopKeys;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import dev.seckill.testkit.Jwts;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Date;
import java.util.List;

import static dev.seckill.identity.TestTokens.NOW;
import static dev.seckill.identity.TestTokens.SECRET;
import static dev.seckill.identity.TestTokens.claims;
import static dev.seckill.identity.TestTokens.hs256;
import static dev.seckill.testkit.ShopKeys.sign;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every way a sign-in token is accepted, and each way one is refused, with its stable reason. */
class TokenVerifierTest {

    private static final RSAKey RSA = ShopKeys.rsa("rsa-1");
    private static final ECKey EC = ShopKeys.ec("ec-1");
    private static final RSAKey OTHER_RSA = ShopKeys.rsa("rsa-1");

    private final TestClock clock = new TestClock(NOW);
    private final JwksKeys keys = new JwksKeys(() -> new JWKSet(List.of(RSA.toPublicJWK(), EC.toPublicJWK())), clock,
            Duration.ofSeconds(10), Duration.ofMinutes(5));
    private final ClaimRules rules = new ClaimRules("https://id.shop.example", "seckill", "sub", Duration.ofSeconds(60));
    private final TokenVerifier verifier = new TokenVerifier(SECRET, keys, rules, clock);

    private static JWTClaimsSet.Builder shop(Object user) {
        return claims(user).issuer("https://id.shop.example").audience("seckill");
    }

    private void assertUser(long user, String token) {
        assertEquals(new User(user), verifier.verify(token).signedIn().orElseThrow(), token);
    }

    private void assertRefused(TokenRefusal reason, String token) {
        assertEquals(new Verification.Refused(reason), verifier.verify(token), String.valueOf(token));
    }

    @Test
    void anRs256TokenSignedByAKeyOfTheJwksVerifiesToItsUserAndExpiry() {
        Verification v = verifier.verify(sign(RSA, shop("42").build()));
        assertEquals(new Verification.Verified(new User(42), NOW.plusSeconds(3600)), v);
    }

    @Test
    void anEs256TokenSignedByAKeyOfTheJwksVerifies() {
        assertUser(43, sign(EC, shop("43").build()));
    }

    @Test
    void anHs256TokenSignedWithTheSharedSecretVerifies() {
        assertUser(44, hs256(SECRET, shop("44").build()));
    }

    @Test
    void theUserIdMayBeAJsonNumberOrADecimalStringInAConfiguredClaim() {
        TokenVerifier uid = new TokenVerifier(SECRET, null, new ClaimRules("", "", "uid", Duration.ZERO), clock);
        assertEquals(new User(7), uid.verify(hs256(SECRET, claims("x").claim("uid", 7L).build())).signedIn().orElseThrow());
        assertEquals(new User(Long.MAX_VALUE), uid.verify(hs256(SECRET, claims("x").claim("uid", "9223372036854775807")
                .build())).signedIn().orElseThrow());
    }

    @Test
    void aUserClaimThatIsNotAPositive64BitIdIsRefused() {
        for (Object bad : new Object[]{0L, -1L, 1.5, "0", "007", "-3", "+3", "1.0", "9223372036854775808", "abc", ""}) {
            assertRefused(TokenRefusal.BAD_USER_CLAIM, hs256(SECRET, shop(bad).build()));
        }
        assertRefused(TokenRefusal.BAD_USER_CLAIM, hs256(SECRET, shop("1").claim("sub", null).build()));
        // sub is a registered claim: a value that is neither text nor a number makes the whole token malformed.
        assertRefused(TokenRefusal.MALFORMED, hs256(SECRET, shop(true).build()));
        TokenVerifier uid = new TokenVerifier(SECRET, null, new ClaimRules("", "", "uid", Duration.ZERO), clock);
        for (Object bad : new Object[]{true, List.of(1), java.util.Map.of("id", 1)}) {
            assertEquals(new Verification.Refused(TokenRefusal.BAD_USER_CLAIM),
                    uid.verify(hs256(SECRET, claims("9").claim("uid", bad).build())), String.valueOf(bad));
        }
    }

    @Test
    void anExpiredTokenIsRefusedOnceTheClockSkewHasPassed() {
        String t = sign(RSA, shop("42").expirationTime(Date.from(NOW.minusSeconds(30))).build());
        assertUser(42, t);
        clock.advance(Duration.ofSeconds(30));
        assertRefused(TokenRefusal.TOKEN_EXPIRED, t);
    }

    @Test
    void aTokenWithoutExpiryIsRefused() {
        assertRefused(TokenRefusal.EXPIRY_REQUIRED, sign(RSA, shop("42").expirationTime(null).build()));
    }

    @Test
    void aTokenNotYetValidIsRefusedUntilWithinTheClockSkew() {
        String t = sign(EC, shop("42").notBeforeTime(Date.from(NOW.plusSeconds(90))).build());
        assertRefused(TokenRefusal.TOKEN_NOT_YET_VALID, t);
        clock.advance(Duration.ofSeconds(30));
        assertUser(42, t);
    }

    @Test
    void aTokenOfAnotherIssuerIsRefused() {
        assertRefused(TokenRefusal.WRONG_ISSUER, sign(RSA, shop("42").issuer("https://evil.example").build()));
        assertRefused(TokenRefusal.WRONG_ISSUER, sign(RSA, shop("42").issuer(null).build()));
    }

    @Test
    void aTokenForAnotherAudienceIsRefusedAndOneOfSeveralAudiencesIsEnough() {
        assertRefused(TokenRefusal.WRONG_AUDIENCE, sign(RSA, shop("42").audience("another-app").build()));
        assertRefused(TokenRefusal.WRONG_AUDIENCE, sign(RSA, shop("42").audience((String) null).build()));
        assertUser(42, sign(RSA, shop("42").audience(List.of("another-app", "seckill")).build()));
    }

    @Test
    void aTokenSignedByAKeyTheJwksDoesNotHoldIsRefusedAsUnknownKey() {
        assertRefused(TokenRefusal.UNKNOWN_KEY, sign(ShopKeys.rsa("rsa-unknown"), shop("42").build()));
        // The kid of the EC key on an RS256 token: no RSA key of that id.
        String rs256WithEcKid;
        try {
            rs256WithEcKid = sign(JWSAlgorithm.RS256, "ec-1", new RSASSASigner(RSA), shop("42").build());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        assertRefused(TokenRefusal.UNKNOWN_KEY, rs256WithEcKid);
    }

    @Test
    void aTokenSignedByAnotherKeyUnderAKnownKidIsABadSignature() {
        assertRefused(TokenRefusal.BAD_SIGNATURE, sign(OTHER_RSA, shop("42").build()));
    }

    @Test
    void anUnsignedTokenAlgNoneIsRefused() {
        assertRefused(TokenRefusal.ALGORITHM_NOT_ALLOWED, new PlainJWT(shop("42").build()).serialize());
    }

    @Test
    void anHmacTokenKeyedWithThePublicKeyIsRefusedAlgorithmConfusion() throws JOSEException {
        // The forger "signs" HS256 with the provider's public key, hoping it is taken as the HMAC secret.
        byte[] publicKey = RSA.toRSAPublicKey().getEncoded();
        String forged = sign(JWSAlgorithm.HS256, "rsa-1", new MACSigner(publicKey), shop("42").build());
        assertRefused(TokenRefusal.BAD_SIGNATURE, forged);
        // Without a shared secret, HS256 is not accepted at all.
        TokenVerifier jwksOnly = new TokenVerifier("", keys, rules, clock);
        assertEquals(new Verification.Refused(TokenRefusal.ALGORITHM_NOT_ALLOWED), jwksOnly.verify(forged));
    }

    @Test
    void algorithmsOtherThanRs256Es256AndHs256AreRefused() throws JOSEException {
        assertRefused(TokenRefusal.ALGORITHM_NOT_ALLOWED,
                sign(JWSAlgorithm.RS384, "rsa-1", new RSASSASigner(RSA), shop("42").build()));
        assertRefused(TokenRefusal.ALGORITHM_NOT_ALLOWED,
                sign(JWSAlgorithm.PS256, "rsa-1", new RSASSASigner(RSA), shop("42").build()));
        assertRefused(TokenRefusal.ALGORITHM_NOT_ALLOWED,
                sign(JWSAlgorithm.HS512, null, new MACSigner(SECRET + SECRET), shop("42").build()));
        TokenVerifier secretOnly = new TokenVerifier(SECRET, null, rules, clock);
        assertEquals(new Verification.Refused(TokenRefusal.ALGORITHM_NOT_ALLOWED),
                secretOnly.verify(sign(RSA, shop("42").build())), "no JWKS: RS256 is not accepted");
    }

    @Test
    void aTamperedPayloadBreaksTheSignature() {
        assertRefused(TokenRefusal.BAD_SIGNATURE, Jwts.withClaim(sign(RSA, shop("42").build()), "sub", "43"));
        assertRefused(TokenRefusal.BAD_SIGNATURE, Jwts.withClaim(sign(EC, shop("42").build()), "sub", "43"));
        assertRefused(TokenRefusal.BAD_SIGNATURE, Jwts.withClaim(hs256(SECRET, shop("42").build()), "sub", "43"));
        assertRefused(TokenRefusal.BAD_SIGNATURE, hs256("another-secret-of-at-least-32-bytes!", shop("42").build()));
    }

    @Test
    void malformedStringsAreRefusedWithoutExceptions() {
        String good = hs256(SECRET, shop("42").build());
        for (String junk : new String[]{null, "", ".", "..", "abc", "a.b.c", "v1.42.1900000000.c2ln", "a.b.c.d.e",
                "%%%.%%%.%%%", good + "x".repeat(TokenVerifier.MAX_LENGTH)}) {
            assertRefused(TokenRefusal.MALFORMED, junk);
        }
    }

    @Test
    void aSecretShorterThan32BytesOrNoWayToCheckATokenRefusesToStart() {
        assertThrows(IllegalArgumentException.class, () -> new TokenVerifier("x".repeat(31), null, rules, clock));
        assertThrows(IllegalArgumentException.class, () -> new TokenVerifier("", null, rules, clock));
        assertTrue(new TokenVerifier("", keys, rules, clock).verify(sign(EC, shop("5").build())).signedIn().isPresent());
    }
}
