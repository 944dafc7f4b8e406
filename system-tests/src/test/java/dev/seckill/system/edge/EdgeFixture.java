package dev.seckill.system.edge;

import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The setup every edge IT shares: an {@link UpstreamStub} standing in for the service and an {@link EdgeInstance}
 * in front of it, started before and stopped after the tests. Registered on a static field it serves the whole
 * class (the stub's answer is reset to {@link UpstreamStub#DEFAULT} before each test; its recorded hits are kept, so
 * tests use paths of their own); on an instance field each test gets a fresh stub and edge.
 *
 * <pre>
 * &#64;RegisterExtension
 * static final EdgeFixture fixture = EdgeFixture.of("micro-cache", "SECKILL_EDGE_MICROCACHE_TTL", "1s");
 * </pre>
 */
public final class EdgeFixture implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

    private final String name;
    private final Map<String, String> knobs;
    private final Supplier<Map<String, String>> lateKnobs;
    private boolean classScoped;
    private UpstreamStub upstream;
    private EdgeInstance edge;

    private EdgeFixture(String name, Map<String, String> knobs, Supplier<Map<String, String>> lateKnobs) {
        this.name = name;
        this.knobs = knobs;
        this.lateKnobs = lateKnobs;
    }

    /** An edge named {@code name} (its run directory) with these SECKILL_EDGE_* knobs as name/value pairs. */
    public static EdgeFixture of(String name, String... knobs) {
        return new EdgeFixture(name, pairs(knobs), Map::of);
    }

    /** As {@link #of}, with knobs known only when the fixture starts (a directory another extension made). */
    public static EdgeFixture of(String name, Supplier<Map<String, String>> knobs) {
        return new EdgeFixture(name, Map.of(), knobs);
    }

    public UpstreamStub upstream() {
        return upstream;
    }

    public EdgeInstance edge() {
        return edge;
    }

    public String url(String path) {
        return edge.url(path);
    }

    public String metrics(HttpJson http) {
        return edge.metrics(http);
    }

    /** Another edge in front of the same stub, with these knobs on top of the defaults; the caller closes it. */
    public EdgeInstance another(String otherName, String... otherKnobs) {
        Map<String, String> all = new HashMap<>(pairs(otherKnobs));
        all.putIfAbsent("SECKILL_EDGE_UPSTREAM", upstream.address());
        return EdgeInstance.start(otherName, all);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        classScoped = true;
        start();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (classScoped) {
            upstream.answer(UpstreamStub.DEFAULT);
        } else {
            start();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!classScoped) {
            stop();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        stop();
    }

    private void start() {
        upstream = UpstreamStub.start();
        Map<String, String> all = new HashMap<>(knobs);
        all.putAll(lateKnobs.get());
        all.put("SECKILL_EDGE_UPSTREAM", upstream.address());
        try {
            edge = EdgeInstance.start(name, all);
        } catch (RuntimeException | Error e) {
            upstream.close();
            throw e;
        }
    }

    private void stop() {
        try {
            if (edge != null) {
                edge.close();
            }
        } finally {
            if (upstream != null) {
                upstream.close();
            }
        }
    }

    private static Map<String, String> pairs(String... keyValues) {
        if (keyValues.length % 2 != 0) {
            throw new IllegalArgumentException("knobs come as name/value pairs");
        }
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return m;
    }
}
