package dev.seckill.identity;

import dev.seckill.testkit.TestClock;
import dev.seckill.config.TestConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static dev.seckill.identity.TestTokens.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The seckill.jwt section: application.yaml's defaults, and the environment names docs/configuration.md gives
 * (the issue's own, without _) really setting its keys through Helidon's mapping.
 */
class JwtSettingsTest {

    private static JwtSettings settings(Map<String, String> environment) {
        return JwtSettings.from(TestConfig.environment(environment).get("seckill.jwt"));
    }

    @Test
    void applicationYamlGivesEveryDefault() {
        JwtSettings s = settings(Map.of());
        assertEquals(new JwtSettings("", Duration.ofSeconds(10), Duration.ofSeconds(2), "",
                new ClaimRules("", "", "sub", Duration.ofSeconds(60))), s);
    }

    @Test
    void theSixDocumentedEnvironmentNamesSetTheirKeys() {
        JwtSettings s = settings(Map.of(
                "SECKILL_JWT_JWKS_URL", "https://id.shop.example/.well-known/jwks.json",
                "SECKILL_JWT_HS256_SECRET", "a-shared-secret-of-at-least-32-bytes",
                "SECKILL_JWT_ISSUER", "https://id.shop.example",
                "SECKILL_JWT_AUDIENCE", "seckill",
                "SECKILL_JWT_USER_CLAIM", "customer_id",
                "SECKILL_JWT_CLOCK_SKEW_SECONDS", "5"));
        assertEquals("https://id.shop.example/.well-known/jwks.json", s.jwksUrl());
        assertEquals("a-shared-secret-of-at-least-32-bytes", s.hs256Secret());
        assertEquals(new ClaimRules("https://id.shop.example", "seckill", "customer_id", Duration.ofSeconds(5)),
                s.claims());
    }

    @Test
    void theFetchKnobsHaveTheirNamesToo() {
        JwtSettings s = settings(Map.of("SECKILL_JWT_JWKS_REFRESH_MS", "1000", "SECKILL_JWT_JWKS_TIMEOUT_MS", "500"));
        assertEquals(Duration.ofSeconds(1), s.jwksRefresh());
        assertEquals(Duration.ofMillis(500), s.jwksTimeout());
    }

    @Test
    void valuesOutsideTheirRangeStopTheStart() {
        assertThrows(IllegalArgumentException.class, () -> settings(Map.of("SECKILL_JWT_CLOCK_SKEW_SECONDS", "-1")));
        assertThrows(IllegalArgumentException.class, () -> settings(Map.of("SECKILL_JWT_USER_CLAIM", " ")));
        assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("SECKILL_JWT_JWKS_REFRESH_MS", "300001")));
        assertThrows(IllegalArgumentException.class,
                () -> JwksKeys.at("ftp://id.example/jwks", Duration.ofSeconds(1), Duration.ZERO, Duration.ZERO,
                        new TestClock(NOW)));
        assertThrows(IllegalArgumentException.class,
                () -> JwksKeys.at("not a url", Duration.ofSeconds(1), Duration.ZERO, Duration.ZERO,
                        new TestClock(NOW)));
    }
}
