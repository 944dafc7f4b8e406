package dev.seckill.identity;

import com.nimbusds.jwt.SignedJWT;
import dev.seckill.testkit.Jwts;
import org.junit.jupiter.api.Test;

import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenSignerTest {

    private static final String SECRET = "0123456789abcdef0123456789abcdef";
    private final Clock now = Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC);
    private final TokenSigner signer = new TokenSigner(SECRET, Duration.ofHours(1), now);

    @Test
    void aMintedTokenIsAnHs256JwtNamingItsUserInSubWithItsExpiry() throws ParseException {
        SignedJWT jwt = SignedJWT.parse(signer.mint(42));
        assertEquals("HS256", jwt.getHeader().getAlgorithm().getName());
        assertEquals("42", jwt.getJWTClaimsSet().getSubject());
        assertEquals(Date.from(now.instant().plus(Duration.ofHours(1))), jwt.getJWTClaimsSet().getExpirationTime());
    }

    @Test
    void aMintedTokenVerifiesToItsUserWithTheServicesVerifierKeyedWithTheSameSecret() {
        assertEquals(new User(42), signer.verify(signer.mint(42)).orElseThrow());
        TokenVerifier service = new TokenVerifier(SECRET, null,
                new ClaimRules("", "", "sub", Duration.ofSeconds(60)), now);
        assertEquals(new User(42), service.verify(signer.mint(42)).signedIn().orElseThrow());
    }

    @Test
    void changingTheUserIdInATokenMakesItInvalid() {
        assertTrue(signer.verify(Jwts.withClaim(signer.mint(42), "sub", "43")).isEmpty());
    }

    @Test
    void aTokenSignedWithAnotherSecretIsRejected() {
        TokenSigner other = new TokenSigner("another-secret-0123456789abcdef0123", Duration.ofHours(1), now);
        assertTrue(signer.verify(other.mint(42)).isEmpty());
    }

    @Test
    void anExpiredTokenIsRejected() {
        String t = signer.mint(42);
        TokenSigner later = new TokenSigner(SECRET, Duration.ofHours(1), Clock.offset(now, Duration.ofHours(2)));
        assertTrue(later.verify(t).isEmpty());
    }

    @Test
    void garbageIsRejectedWithoutExceptions() {
        for (String junk : new String[]{null, "", ".", "v1", "v1.x.y.z", "a.b.c.d.e", "x".repeat(5000)}) {
            assertTrue(signer.verify(junk).isEmpty(), String.valueOf(junk));
        }
    }

    @Test
    void aSecretShorterThan32BytesRefusesToStart() {
        assertThrows(IllegalArgumentException.class, () -> new TokenSigner("short", Duration.ofHours(1), now));
        assertThrows(IllegalArgumentException.class, () -> new TokenSigner("x".repeat(31), Duration.ofHours(1), now));
        assertThrows(IllegalArgumentException.class, () -> new TokenSigner(null, Duration.ofHours(1), now));
        new TokenSigner("x".repeat(32), Duration.ofHours(1), now);
        // Bytes, not characters: 16 two-byte characters are 32 bytes.
        new TokenSigner("é".repeat(16), Duration.ofHours(1), now);
    }
}
