package dev.seckill.bench.load;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import dev.seckill.identity.ClaimRules;
import dev.seckill.identity.JwksKeys;
import dev.seckill.identity.TokenVerifier;
import dev.seckill.identity.User;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bench's identity provider: tokens the service's own verifier takes from its JWKS, kept with their keys. */
class ShopIdentityTest {

    @TempDir
    Path dir;

    private static TokenVerifier serviceTrusting(ShopIdentity provider) {
        Clock clock = Clock.systemUTC();
        return new TokenVerifier("", new JwksKeys(() -> JWKSet.parse(provider.jwks()), clock, Duration.ofSeconds(10),
                Duration.ofMinutes(5)), new ClaimRules("", "", "sub", Duration.ofSeconds(60)), clock);
    }

    @Test
    void eachBuyersRs256AndEs256TokenNamesItAndVerifiesAgainstTheServedKeys() throws Exception {
        ShopIdentity provider = ShopIdentity.in(dir);
        assertFalse(provider.jwks().contains("\"d\""), "the served set holds no private half");
        TokenVerifier service = serviceTrusting(provider);
        for (JWSAlgorithm alg : new JWSAlgorithm[] {JWSAlgorithm.RS256, JWSAlgorithm.ES256}) {
            Users users = provider.users(alg, 41, 3);
            assertEquals(3, users.size());
            for (int i = 0; i < 3; i++) {
                assertEquals(Optional.of(new User(41 + i)), service.verify(users.token(i)).signedIn(), alg + " " + i);
            }
        }
    }

    @Test
    void theKeysAndTokensAreKeptAndTakenAgainWhileTheKeysAreTheSame() throws Exception {
        String token = ShopIdentity.in(dir).users(JWSAlgorithm.RS256, 1, 2).token(1);
        assertEquals(token, ShopIdentity.in(dir).users(JWSAlgorithm.RS256, 1, 2).token(1), "kept");
        assertTrue(serviceTrusting(ShopIdentity.in(dir)).verify(token).signedIn().isPresent());

        Files.delete(dir.resolve("keys.json"));
        ShopIdentity renewed = ShopIdentity.in(dir);
        String again = renewed.users(JWSAlgorithm.RS256, 1, 2).token(1);
        assertNotEquals(token, again, "new keys, new tokens");
        assertFalse(serviceTrusting(renewed).verify(token).signedIn().isPresent(), "the old key's token is not taken");
    }
}
