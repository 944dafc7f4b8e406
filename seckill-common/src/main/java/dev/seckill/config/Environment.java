package dev.seckill.config;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.config.spi.ConfigSource;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The one rule that names a setting in the environment, for the service and the writer alike: its application.yaml
 * key upper-cased, each dot and each dash an underscore ({@code kafka.linger-ms} is {@code KAFKA_LINGER_MS},
 * {@code seckill.line.interval-ms} is {@code SECKILL_LINE_INTERVAL_MS}). Only the keys the process's application.yaml
 * has are read (it holds the default of every setting), so no two of them may share a name; Helidon's own mapping
 * (a dash spelled {@code _dash_}) is not used.
 */
public final class Environment {

    private Environment() {
    }

    /** The environment name of a key. */
    public static String name(String key) {
        return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /**
     * The process's config: {@code yaml} under the values {@code environment} gives its keys.
     *
     * @throws IllegalStateException when two keys of {@code yaml} have one name (a file this rule cannot serve)
     */
    public static Config config(Supplier<? extends ConfigSource> yaml, Map<String, String> environment) {
        Config defaults = Config.builder(yaml).disableEnvironmentVariablesSource().disableSystemPropertiesSource()
                .build();
        return Config.builder(ConfigSources.create(overrides(defaults, environment)), yaml)
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .build();
    }

    /** The values {@code environment} gives the keys of {@code defaults}, by key. */
    static Map<String, String> overrides(Config defaults, Map<String, String> environment) {
        Map<String, String> keyOfName = new HashMap<>();
        Map<String, String> out = new TreeMap<>();
        defaults.traverse().filter(Config::isLeaf).forEach(node -> {
            String key = node.key().toString();
            String name = name(key);
            String other = keyOfName.putIfAbsent(name, key);
            if (other != null) {
                throw new IllegalStateException("keys " + other + " and " + key + " are both " + name
                        + " in the environment: rename one");
            }
            String value = environment.get(name);
            if (value != null) {
                out.put(key, value);
            }
        });
        return out;
    }
}
