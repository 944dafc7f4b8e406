package dev.seckill.app;

import dev.seckill.config.TestConfig;
import dev.seckill.purchase.LimiterSettings;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every section of the service's config as {@link ServiceSettings} reads it: application.yaml alone gives every
 * setting (it holds every default), the environment variables docs/configuration.md names override them, and a bad
 * value stops the start with a message naming its key. The redis section: RedisSettingsTest; protection:
 * ProtectionSettingsTest.
 */
class ServiceSettingsTest {

    private static ServiceSettings settings(Map<String, String> environment) {
        return ServiceSettings.from(TestConfig.environment(environment));
    }

    private static String refusal(Map<String, String> environment) {
        return assertThrows(IllegalArgumentException.class, () -> settings(environment)).getMessage();
    }

    @Test
    void applicationYamlAloneGivesEverySetting() {
        ServiceSettings s = settings(Map.of());

        assertEquals(new LimiterSettings(1.0, 3), s.limiter());
        assertEquals(1000, s.soldOutTtlMs());
        assertEquals("", s.edgeAdmin());
        assertEquals(OptionalLong.empty(), s.node(), "no node number: drawn from Redis at start");
        assertFalse(s.demoLogin());
        assertEquals("", s.adminToken());
        assertEquals(Duration.ofSeconds(86_400), s.token().ttl());
        assertEquals("127.0.0.1:19092", s.kafka().bootstrap());
        assertEquals("seckill.orders", s.kafka().topic());
        assertEquals(Duration.ofMillis(5000), s.kafka().deliveryTimeout().value());
        assertEquals(5, s.kafka().lingerMs());
        assertEquals("seckill-writer", s.kafka().writerGroup());
        assertEquals("jdbc:mariadb://127.0.0.1:13306/seckill", s.db().url());
        assertEquals("seckill", s.db().user());
        assertEquals(8, s.db().pool());
        assertEquals(Duration.ofSeconds(30), s.reconcile().grace());
        assertFalse(s.reconcile().periodic(), "reconcile only on request");
        assertEquals(Duration.ofMillis(1000), s.expiry().interval());
        assertEquals(500, s.expiry().batch());
        assertEquals(Duration.ofMillis(1000), s.resend().interval());
        assertEquals(Duration.ofMillis(1000), s.resend().after());
        assertEquals(Duration.ofMillis(60_000), s.archive().interval());
        assertEquals(Duration.ofSeconds(86_400), s.archive().retention());
        assertEquals(Duration.ofSeconds(600), s.archive().linger());
        assertEquals(s.reconcile().grace(), s.archive().grace(), "an archived sale waits for reconcile's grace");
    }

    @Test
    void theEnvironmentVariablesTheReadmeNamesOverrideThem() {
        ServiceSettings s = settings(Map.ofEntries(
                Map.entry("SECKILL_LIMITER_RATE", "2.5"), Map.entry("SECKILL_LIMITER_BURST", "5"),
                Map.entry("SECKILL_SOLDOUT_TTL_MS", "250"), Map.entry("SECKILL_EDGE_ADMIN", "http://e:1"),
                Map.entry("SECKILL_NODE", "12"), Map.entry("SECKILL_DEMO_LOGIN", "true"),
                Map.entry("SECKILL_TOKEN_TTL_SECONDS", "60"), Map.entry("KAFKA_LINGER_MS", "0"),
                Map.entry("KAFKA_DELIVERY_TIMEOUT_MS", "3000"), Map.entry("DB_PASSWORD", "pw"),
                Map.entry("SECKILL_RECONCILE_INTERVAL", "15"), Map.entry("SECKILL_EXPIRY_INTERVAL_MS", "0"),
                Map.entry("SECKILL_EXPIRY_BATCH", "50"), Map.entry("SECKILL_RESEND_AFTER_MS", "2500")));

        assertEquals(new LimiterSettings(2.5, 5), s.limiter());
        assertEquals(250, s.soldOutTtlMs());
        assertEquals("http://e:1", s.edgeAdmin());
        assertEquals(OptionalLong.of(12), s.node());
        assertTrue(s.demoLogin());
        assertEquals(Duration.ofSeconds(60), s.token().ttl());
        assertEquals(0, s.kafka().lingerMs());
        assertEquals(Duration.ofMillis(3000), s.kafka().deliveryTimeout().value());
        assertEquals("pw", s.db().password());
        assertTrue(s.reconcile().periodic());
        assertEquals(Duration.ofSeconds(15), s.reconcile().interval());
        assertFalse(s.expiry().enabled(), "0 turns the expiry off on this instance");
        assertEquals(50, s.expiry().batch());
        assertEquals(Duration.ofMillis(2500), s.resend().after());
    }

    /** The values that are constants now (docs/configuration.md, "What is a knob"): their old names change nothing. */
    @Test
    void theNamesOfTheConstantsAreNotRead() {
        assertEquals(settings(Map.of()), settings(Map.of("REDIS_NETTY_THREADS", "0", "SECKILL_JWT_CACHE_SIZE", "-1",
                "SECKILL_JWT_JWKS_MAX_AGE_SECONDS", "1", "SECKILL_BREAKER_WINDOW", "0",
                "SECKILL_BREAKER_FAILURE_RATE", "x", "SECKILL_BREAKER_WAIT_MS", "0",
                "SECKILL_BREAKER_HALF_OPEN_CALLS", "0", "SECKILL_ARCHIVE_LOOK_BACK_HOURS", "x")));
    }

    @Test
    void aValueThatIsNotANumberStopsTheStartNamingItsKey() {
        assertEquals("seckill.limiter.burst must be a whole number, not 'three'",
                refusal(Map.of("SECKILL_LIMITER_BURST", "three")));
        assertEquals("kafka.linger-ms must be a whole number, not '5ms'", refusal(Map.of("KAFKA_LINGER_MS", "5ms")));
    }

    @Test
    void aValueOutsideItsRangeStopsTheStart() {
        assertEquals("kafka.linger-ms must be 0 or more, not -1", refusal(Map.of("KAFKA_LINGER_MS", "-1")));
        assertEquals("db.pool must be at least 1, not 0", refusal(Map.of("DB_POOL", "0")));
        assertEquals("limiter rate must be > 0 and burst >= 1", refusal(Map.of("SECKILL_LIMITER_RATE", "0")));
    }

    @Test
    void aGraceShorterThanAKafkaSendCanTakeStopsTheStart() {
        // The delivery timeout is 5 s, settled a second later: a 5 s grace could release a unit an event lands on.
        assertEquals("seckill.reconcile.grace-seconds must exceed kafka.delivery-timeout-ms",
                refusal(Map.of("SECKILL_RECONCILE_GRACE_SECONDS", "5")));
    }
}
