package dev.seckill.config;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;

import java.util.Map;

/** The service's application.yaml with a test's own values over it, never the test machine's environment. */
public final class TestConfig {

    private TestConfig() {
    }

    /** With these keys over it, spelled as application.yaml spells them ({@code redis.pool}). */
    public static Config keys(Map<String, String> keys) {
        return ServiceConfig.with(ConfigSources.create(keys));
    }

    /**
     * With these environment variables over it, through the rule the service applies to its real environment
     * ({@link Environment}): a wrong name in docs/configuration.md fails the test that uses it.
     */
    public static Config environment(Map<String, String> variables) {
        return ServiceConfig.fromEnvironment(variables);
    }
}
