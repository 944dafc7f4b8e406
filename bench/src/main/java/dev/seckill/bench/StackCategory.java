package dev.seckill.bench;

import java.util.List;
import java.util.Map;

/**
 * Which part of the service a stack belongs to, for the profile's "where the time goes": the first frame from the
 * top of the stack (the leaf) that is not the JDK's names the part, so a HashMap lookup inside Redisson counts as
 * Redisson and an HMAC inside the identity check as identity. A stack of JDK frames only is the virtual-thread
 * scheduler, the JDK's sockets, or the JDK otherwise.
 */
final class StackCategory {

    static final String REDISSON = "Redisson (and its Netty)";
    static final String KAFKA = "Kafka producer";
    static final String HELIDON = "Helidon HTTP";
    static final String JSON = "JSON";
    static final String IDENTITY = "identity (token check)";
    static final String SCHEDULER = "virtual-thread scheduling and hand-offs";
    /** The bench's own observer: the thread dumps it asks for and JFR's threads (its cost, not the service's). */
    static final String PROFILER = "the profiler itself (thread dumps, JFR)";

    /** Library package prefixes, most specific first (Helidon's JSON and metrics before Helidon itself). */
    private static final List<Map.Entry<String, String>> LIBRARIES = List.of(
            Map.entry("org.redisson.", REDISSON), Map.entry("io.netty.", REDISSON),
            Map.entry("org.apache.kafka.", KAFKA),
            Map.entry("com.fasterxml.jackson.", JSON), Map.entry("jakarta.json", JSON),
            Map.entry("org.eclipse.parsson.", JSON), Map.entry("io.helidon.json.", JSON),
            Map.entry("io.helidon.http.media.jsonp", JSON), Map.entry("io.helidon.http.media.jackson", JSON),
            Map.entry("io.helidon.metrics.", "metrics"), Map.entry("io.micrometer.", "metrics"),
            Map.entry("io.prometheus.", "metrics"),
            Map.entry("io.helidon.tracing.", "tracing"), Map.entry("io.opentelemetry.", "tracing"),
            Map.entry("io.helidon.logging.", "logging"), Map.entry("org.slf4j.", "logging"),
            Map.entry("ch.qos.logback.", "logging"),
            Map.entry("io.helidon.", HELIDON),
            Map.entry("io.github.resilience4j.", "circuit breaker"), Map.entry("org.mariadb.", "MariaDB JDBC"), Map.entry("com.zaxxer.hikari.", "MariaDB JDBC"),
            Map.entry("dev.seckill.identity.", IDENTITY));

    private StackCategory() {
    }

    /** @param classesLeafFirst the class of each frame, from the top of the stack down */
    static String of(List<String> classesLeafFirst) {
        for (String c : classesLeafFirst) {
            if (c.startsWith("jdk.internal.vm.ThreadDumper") || c.startsWith("jdk.jfr.") || c.startsWith("jdk.internal.jfr.")) {
                return PROFILER;
            }
        }
        for (String c : classesLeafFirst) {
            for (Map.Entry<String, String> e : LIBRARIES) {
                if (c.startsWith(e.getKey())) {
                    return e.getValue();
                }
            }
            if (c.startsWith("dev.seckill.")) {
                String rest = c.substring("dev.seckill.".length());
                return "seckill " + (rest.contains(".") ? rest.substring(0, rest.indexOf('.')) : rest);
            }
            if (c.startsWith("java.util.logging.")) {
                return "logging";
            }
            if (!jdk(c)) {
                return "other libraries";
            }
        }
        for (String c : classesLeafFirst) {
            if (c.startsWith("java.lang.VirtualThread") || c.startsWith("jdk.internal.vm.Continuation")
                    || c.startsWith("java.util.concurrent.ForkJoin")) {
                return SCHEDULER;
            }
        }
        for (String c : classesLeafFirst) {
            if (c.startsWith("sun.nio.ch.")) {
                return "JDK sockets (NIO)";
            }
        }
        return "JDK (other)";
    }

    /** The first frame that is not the JDK's, as Class.method (the waiting site of a park), or the leaf. */
    static int firstOwnFrame(List<String> classesLeafFirst) {
        for (int i = 0; i < classesLeafFirst.size(); i++) {
            if (!jdk(classesLeafFirst.get(i))) {
                return i;
            }
        }
        return 0;
    }

    static boolean jdk(String className) {
        return className.startsWith("java.") || className.startsWith("javax.") || className.startsWith("jdk.")
                || className.startsWith("sun.") || className.startsWith("com.sun.");
    }
}
