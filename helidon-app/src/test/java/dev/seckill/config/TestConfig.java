package dev.seckill.config;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.config.EnvironmentVariables;

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
     * With these environment variables over it, through Helidon's own alias mapping, the one {@code Config.create()}
     * applies to the real environment: a wrong name in docs/configuration.md fails the test that uses it.
     */
    @SuppressWarnings("removal")
    public static Config environment(Map<String, String> variables) {
        return ServiceConfig.with(ConfigSources.create(EnvironmentVariables.expand(variables)));
    }
}
