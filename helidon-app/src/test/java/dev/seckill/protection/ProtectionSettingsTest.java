package dev.seckill.protection;

import dev.seckill.config.TestConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The protection TTLs as the service reads them: from application.yaml, and overridden by the environment
 * variables docs/configuration.md names, through Helidon's own alias mapping ({@link TestConfig#environment}).
 */
class ProtectionSettingsTest {

    private static ProtectionSettings protection(Map<String, String> environment) {
        return ProtectionSettings.from(TestConfig.environment(environment).get("seckill.protection"));
    }

    @Test
    void applicationYamlGivesAMinuteToSolveAndTwoMinutesToBuy() {
        assertEquals(new ProtectionSettings(Duration.ofSeconds(60), Duration.ofSeconds(120)), protection(Map.of()));
    }

    @Test
    void theEnvironmentNamesOverrideBothTtls() {
        ProtectionSettings p = protection(Map.of("SECKILL_PROTECTION_CHALLENGE_TTL_SECONDS", "45",
                "SECKILL_PROTECTION_PATH_TTL_SECONDS", "30"));

        assertEquals(new ProtectionSettings(Duration.ofSeconds(45), Duration.ofSeconds(30)), p);
    }

    @Test
    void helidonsDashSpellingIsNotRead() {
        // One rule names every key (dev.seckill.config.Environment); the _dash_ spelling of Helidon's mapping is
        // not a second one.
        ProtectionSettings p = protection(Map.of("SECKILL_PROTECTION_CHALLENGE_dash_TTL_dash_SECONDS", "45"));

        assertEquals(Duration.ofSeconds(60), p.challengeTtl());
    }

    @Test
    void aTtlOutsideOneToThreeThousandSixHundredSecondsRefusesToStart() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> protection(Map.of("SECKILL_PROTECTION_PATH_TTL_SECONDS", "0")));
        assertEquals("seckill.protection.path-ttl-seconds must be from 1 to 3600 seconds", zero.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> protection(Map.of("SECKILL_PROTECTION_CHALLENGE_TTL_SECONDS", "3601")));
    }
}
