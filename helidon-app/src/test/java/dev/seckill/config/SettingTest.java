package dev.seckill.config;

import io.helidon.config.Config;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One value read for a settings record: there, missing (stops the start, naming the key), or of the wrong type. */
class SettingTest {

    private static String refusal(Runnable read) {
        return assertThrows(IllegalArgumentException.class, read::run).getMessage();
    }

    @Test
    void aKeyTakenOutOfApplicationYamlStopsTheStartNamingIt() {
        Config none = Config.empty();
        assertEquals("seckill.limiter.burst is not set; application.yaml gives every setting its default, so it must "
                + "be in the configuration", refusal(() -> Setting.integer(none.get("seckill.limiter.burst"))));
    }

    @Test
    void aValueOfTheWrongTypeStopsTheStartNamingKeyAndValue() {
        Config bad = TestConfig.keys(Map.of("seckill.limiter.burst", "three", "seckill.limiter.rate", "fast"));
        assertEquals("seckill.limiter.burst must be a whole number, not 'three'",
                refusal(() -> Setting.integer(bad.get("seckill.limiter.burst"))));
        assertEquals("seckill.limiter.rate must be a number, not 'fast'",
                refusal(() -> Setting.decimal(bad.get("seckill.limiter.rate"))));
    }

    @Test
    void aFlagReadsAsHelidonAlwaysReadIt() {
        // What SECKILL_DEMO_LOGIN accepted before every default moved to application.yaml, it still accepts.
        assertTrue(Setting.flag(TestConfig.environment(Map.of("SECKILL_DEMO_LOGIN", "yes")).get("seckill.demo.login")));
        assertFalse(Setting.flag(TestConfig.environment(Map.of("SECKILL_DEMO_LOGIN", "perhaps"))
                .get("seckill.demo.login")));
    }

    @Test
    void aDurationIsItsNumberInTheUnitItsKeyNames() {
        Config yaml = TestConfig.keys(Map.of());
        assertEquals(Duration.ofSeconds(30), Setting.duration(yaml.get("seckill.reconcile.grace-seconds"),
                ChronoUnit.SECONDS));
    }

    @Test
    void onlyTheNodeNumberMayBeAbsent() {
        assertEquals(OptionalLong.empty(), Setting.optionalNumber(TestConfig.keys(Map.of()).get("seckill.node")));
        assertEquals(OptionalLong.of(7),
                Setting.optionalNumber(TestConfig.environment(Map.of("SECKILL_NODE", "7")).get("seckill.node")));
    }
}
