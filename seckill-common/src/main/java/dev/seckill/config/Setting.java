package dev.seckill.config;

import io.helidon.config.Config;
import io.helidon.config.ConfigMappingException;
import io.helidon.config.ConfigValue;
import io.helidon.config.MissingValueException;

import java.time.Duration;
import java.time.temporal.TemporalUnit;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * Reads one value of a process's config (the service's or the writer's) for a {@code *Settings} record. The
 * process's application.yaml gives every key its default, and only there: a key that is missing was taken out of it, so the start stops and names the key instead
 * of running on a value nobody chose. A value of the wrong type stops it too, naming the key and the value. Both are
 * {@link IllegalArgumentException}s, which each {@code Main} turns into one line and exit code 2. Values are parsed by
 * Helidon's own mappers, so what a key accepts is what it always accepted.
 */
public final class Setting {

    private Setting() {
    }

    public static String text(Config node) {
        return required(node, Config::asString, "text");
    }

    public static int integer(Config node) {
        return required(node, Config::asInt, "a whole number");
    }

    public static long number(Config node) {
        return required(node, Config::asLong, "a whole number");
    }

    public static double decimal(Config node) {
        return required(node, Config::asDouble, "a number");
    }

    /** Helidon's reading, as ever: true, yes, on or 1 (any case) is true, any other value false. */
    public static boolean flag(Config node) {
        return required(node, Config::asBoolean, "true or false");
    }

    /** A whole number of {@code unit}s: the unit is the key's suffix ({@code -ms}, {@code -seconds}, ...). */
    public static Duration duration(Config node, TemporalUnit unit) {
        return Duration.of(number(node), unit);
    }

    /** A number that may be left empty, which means something of its own (it is documented at the key). */
    public static OptionalLong optionalNumber(Config node) {
        return text(node).isBlank() ? OptionalLong.empty() : OptionalLong.of(number(node));
    }

    private static <T> T required(Config node, Function<Config, ConfigValue<T>> as, String kind) {
        try {
            return as.apply(node).get();
        } catch (MissingValueException e) {
            throw new IllegalArgumentException(node.key() + " is not set; application.yaml gives every setting its "
                    + "default, so it must be in the configuration");
        } catch (ConfigMappingException e) {
            throw new IllegalArgumentException(node.key() + " must be " + kind + ", not '"
                    + node.asString().orElse("") + "'");
        }
    }
}
