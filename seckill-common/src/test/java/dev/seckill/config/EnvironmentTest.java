package dev.seckill.config;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EnvironmentTest {

    private static Config config(Map<String, String> yaml, Map<String, String> environment) {
        return Environment.config(() -> ConfigSources.create(yaml).build(), environment);
    }

    @Test
    void aKeysNameIsItUpperCasedWithEachDotAndDashAnUnderscore() {
        assertEquals("KAFKA_LINGER_MS", Environment.name("kafka.linger-ms"));
        assertEquals("SECKILL_PROTECTION_CHALLENGE_TTL_SECONDS",
                Environment.name("seckill.protection.challenge-ttl-seconds"));
    }

    @Test
    void theEnvironmentSetsTheKeysOfTheFileByThatNameOnly() {
        Config c = config(Map.of("kafka.linger-ms", "5", "server.port", "8081"),
                Map.of("KAFKA_LINGER_MS", "0", "KAFKA_LINGER_dash_MS", "7", "SERVER_HOST", "0.0.0.0", "PATH", "/bin"));
        assertEquals(0, c.get("kafka.linger-ms").asInt().get());
        assertEquals(8081, c.get("server.port").asInt().get());
        assertTrue(c.get("server.host").asString().isEmpty(), "a key the file does not have is not read");
    }

    @Test
    void twoKeysOfOneNameAreRefused() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> config(Map.of("a.b-c", "1", "a.b.c", "2"), Map.of()));
        assertTrue(e.getMessage().contains("are both A_B_C"), e.getMessage());
    }
}
