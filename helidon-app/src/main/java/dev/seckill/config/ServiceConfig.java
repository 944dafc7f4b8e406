package dev.seckill.config;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.config.spi.ConfigSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Collections;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The service's application.yaml, the one place its defaults live, for those who build settings without the
 * service's {@code Main}: tools and tests that open a client the way the service does. The file is the one beside
 * this class: a tool's classpath may also hold the writer's application.yaml, with other sections and defaults.
 */
public final class ServiceConfig {

    private static final String FILE = "application.yaml";

    private ServiceConfig() {
    }

    /** The service's config: its application.yaml under the values {@code environment} gives its keys. */
    public static Config fromEnvironment(Map<String, String> environment) {
        return Environment.config(() -> ConfigSources.url(yaml()).build(), environment);
    }

    /**
     * The service's application.yaml under {@code overrides} (keys as application.yaml spells them), without the
     * process's own environment or system properties.
     */
    public static Config with(Supplier<? extends ConfigSource> overrides) {
        return Config.builder(overrides, ConfigSources.url(yaml()))
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .build();
    }

    private static URL yaml() {
        String home = ServiceConfig.class.getProtectionDomain().getCodeSource().getLocation().toString();
        try {
            for (URL url : Collections.list(ServiceConfig.class.getClassLoader().getResources(FILE))) {
                // A jar's entry is jar:<the jar's URL>!/application.yaml; a classes folder's is
                // <its URL>application.yaml.
                if (url.toString().contains(home)) {
                    return url;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("failed to look for the service's " + FILE, e);
        }
        throw new IllegalStateException("the service's " + FILE + " is not on the classpath beside " + home);
    }
}
