package dev.seckill.app;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.config.EnvironmentVariables;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The protection TTLs (issue 15) as the service reads them: from application.yaml, and overridden by the environment
 * variables the README names. The environment goes through Helidon's own alias mapping, the one
 * {@code Config.create()} applies to the real environment, so a wrong name in the README fails here.
 */
class ProtectionSettingsTest {

    private static Config seckill(Map<String, String> environment) {
        return Config.builder(ConfigSources.create(EnvironmentVariables.expand(environment)),
                        ConfigSources.classpath("application.yaml"))
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .build()
                .get("seckill");
    }

    @Test
    void applicationYamlGivesAMinuteToSolveAndTwoMinutesToBuy() {
        Config app = seckill(Map.of());

        assertEquals(Duration.ofSeconds(60), Protection.challengeTtl(app));
        assertEquals(Duration.ofSeconds(120), Protection.pathTtl(app));
    }

    @Test
    void theDashedEnvironmentNamesOverrideBothTtls() {
        Config app = seckill(Map.of("SECKILL_PROTECTION_CHALLENGE_dash_TTL_dash_SECONDS", "45",
                "SECKILL_PROTECTION_PATH_dash_TTL_dash_SECONDS", "30"));

        assertEquals(Duration.ofSeconds(45), Protection.challengeTtl(app));
        assertEquals(Duration.ofSeconds(30), Protection.pathTtl(app));
    }

    @Test
    void everyDashOfTheKeyMustBeWrittenDash() {
        // _dash_ stands for one dash only: CHALLENGE_TTL_dash_SECONDS is seckill.protection.challenge.ttl-seconds,
        // and without any, the name is seckill.protection.challenge.ttl.seconds. Neither is the key the service reads.
        Config app = seckill(Map.of("SECKILL_PROTECTION_CHALLENGE_TTL_dash_SECONDS", "45",
                "SECKILL_PROTECTION_CHALLENGE_TTL_SECONDS", "46"));

        assertEquals(Duration.ofSeconds(60), Protection.challengeTtl(app));
    }

    @Test
    void aTtlOutsideOneToThreeThousandSixHundredSecondsRefusesToStart() {
        assertThrows(IllegalArgumentException.class,
                () -> Protection.pathTtl(seckill(Map.of("SECKILL_PROTECTION_PATH_dash_TTL_dash_SECONDS", "0"))));
        Config tooLong = seckill(Map.of("SECKILL_PROTECTION_CHALLENGE_dash_TTL_dash_SECONDS", "3601"));
        assertThrows(IllegalArgumentException.class, () -> Protection.challengeTtl(tooLong));
    }
}
