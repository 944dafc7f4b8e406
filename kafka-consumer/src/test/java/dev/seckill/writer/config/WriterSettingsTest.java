package dev.seckill.writer.config;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WriterSettingsTest {

    @Test
    void applicationYamlGivesTheDocumentedDefaults() {
        Config config = Config.just(ConfigSources.classpath("application.yaml"));
        WriterSettings s = WriterSettings.from(config);
        assertEquals("seckill-writer", s.kafka().groupId());
        assertEquals("seckill.orders", s.kafka().topic());
        assertEquals("seckill.orders.DLT", s.kafka().deadLetterTopic());
        assertEquals(1000, s.kafka().maxPollRecords());
        assertEquals(Duration.ofMillis(100), s.retry().initialBackoff());
        assertEquals(Duration.ofSeconds(5), s.retry().maxBackoff());
        assertEquals(4, s.db().pool());
        assertEquals("seckill.order-events", s.relay().topic());
        assertTrue(s.relay().enabled());
    }

    @Test
    void overridesReplaceTheFileValues() {
        WriterSettings s = WriterSettings.from(over(Map.of("kafka.group-id", "other-group",
                "db.url", "jdbc:mariadb://h:1/x")));
        assertEquals("other-group", s.kafka().groupId());
        assertEquals("jdbc:mariadb://h:1/x", s.db().url());
    }

    @Test
    void batchLargerThanTheLimitIsRefusedAtStart() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WriterSettings.from(over(Map.of("kafka.max-poll-records", "100000"))));
        assertTrue(e.getMessage().contains("kafka.max-poll-records"), e.getMessage());
    }

    @Test
    void aKeyTakenOutOfApplicationYamlStopsTheStartNamingIt() {
        Config none = Config.just(ConfigSources.create(Map.of("kafka.topic", "seckill.orders")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WriterSettings.from(none));
        assertEquals("kafka.bootstrap is not set; application.yaml gives every setting its default, so it must be in "
                + "the configuration", e.getMessage());
    }

    private static Config over(Map<String, String> keys) {
        return Config.builder()
                .sources(ConfigSources.create(keys), ConfigSources.classpath("application.yaml"))
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .build();
    }
}
