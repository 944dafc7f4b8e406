package dev.seckill.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the service's request threads spend their wall-clock time: thread dumps of the service every
 * {@code every}, and in each the stack of every virtual thread (Helidon runs each connection, and the requests on it,
 * on one). JFR cannot tell this: a virtual thread that parks on a future (a Redis script, a Kafka send) unmounts and
 * leaves no park event. Each connection thread of a dump (a virtual thread with Helidon's web server on its stack)
 * is one sample: waiting (parked, blocked), ready (woken, its stack still in the park, but no carrier free to run it:
 * the hand-off to a core) or running (mounted, or runnable elsewhere), in the part of the
 * service its leaf-most non-JDK frame names. A connection waiting with none of the service's own frames on its stack
 * is idle between requests (a keep-alive connection from the edge): counted apart, it is not latency.
 */
final class WallClock implements AutoCloseable {

    static final String RUNNING = "running or ready";
    /** Unparked (its answer is in) but not yet mounted: waiting for a free carrier, a core. */
    static final String READY = "ready: woken, waiting for a carrier";
    static final String WAITING = "waiting";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, Double> parts = new HashMap<>();
    private final Map<String, Double> sites = new HashMap<>();
    private final FlameGraph flame = new FlameGraph("Request (virtual) threads over wall-clock time, from thread "
            + "dumps, root at the top", "thread samples");
    private final ServiceRecording service;
    private final Path file;
    private final Duration every;
    private final Thread thread;
    private volatile boolean running = true;
    private long samples;
    private long idle;
    private long dumps;
    private String failure;

    /** Dumps {@code service}'s threads into {@code file} every {@code every}, from now until closed. */
    WallClock(ServiceRecording service, Path file, Duration every) {
        this.service = service;
        this.file = file;
        this.every = every;
        this.thread = service == null ? null : Thread.ofPlatform().daemon().name("bench-wall-clock").start(this::loop);
    }

    private void loop() {
        while (running) {
            long t = System.nanoTime();
            try {
                service.threadDump(file);
                add(JSON.readTree(Files.readAllBytes(file)));
            } catch (IOException e) {
                synchronized (this) {
                    failure = e.getMessage();
                }
            }
            long sleep = every.toNanos() - (System.nanoTime() - t);
            try {
                Thread.sleep(Duration.ofNanos(Math.max(sleep, every.toNanos() / 4)));
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** A virtual thread of a dump: its state, and each frame's class and short name, leaf first. */
    record DumpedThread(String state, List<String> classes, List<String> names) {
    }

    /** One dump as Thread.dump_to_file -format=json writes it (JDK 21+; "virtual" and "state" since JDK 24). */
    synchronized void add(JsonNode dump) {
        dumps++;
        for (DumpedThread t : virtualThreads(dump)) {
            if (t.classes.stream().noneMatch(c -> c.startsWith("io.helidon.webserver."))) {
                continue;
            }
            String state = !"RUNNABLE".equals(t.state) ? WAITING
                    : t.classes.get(0).equals("java.lang.VirtualThread") ? READY : RUNNING;
            if (state.equals(WAITING) && t.classes.stream().noneMatch(c -> c.startsWith("dev.seckill."))) {
                idle++;
                continue;
            }
            samples++;
            parts.merge(state + " · " + StackCategory.of(t.classes), 1.0, Double::sum);
            sites.merge(state + " in " + t.names.get(StackCategory.firstOwnFrame(t.classes)), 1.0, Double::sum);
            List<String> rootFirst = new ArrayList<>(t.names.reversed());
            rootFirst.add("[" + state + "]");
            flame.add(rootFirst, 1);
        }
    }

    static List<DumpedThread> virtualThreads(JsonNode dump) {
        List<DumpedThread> out = new ArrayList<>();
        for (JsonNode container : dump.path("threadDump").path("threadContainers")) {
            for (JsonNode t : container.path("threads")) {
                if (!t.path("virtual").asBoolean(false) || t.path("stack").isEmpty()) {
                    continue;
                }
                List<String> classes = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (JsonNode frame : t.path("stack")) {
                    String[] cm = classAndMethod(frame.asText());
                    classes.add(cm[0]);
                    names.add(ServiceProfile.shortName(cm[0]) + "." + cm[1]);
                }
                out.add(new DumpedThread(t.path("state").asText(), classes, names));
            }
        }
        return out;
    }

    /** "java.base/java.util.concurrent.locks.LockSupport.park(LockSupport.java:221)": the class and the method. */
    static String[] classAndMethod(String frame) {
        String f = frame.contains("(") ? frame.substring(0, frame.indexOf('(')) : frame;
        f = f.substring(f.lastIndexOf('/') + 1);
        int dot = f.lastIndexOf('.');
        return dot < 0 ? new String[] {f, "?"} : new String[] {f.substring(0, dot), f.substring(dot + 1)};
    }

    synchronized long samples() {
        return samples;
    }

    /** Connection threads idle between requests, left out of {@link #samples()}. */
    synchronized long idle() {
        return idle;
    }

    synchronized long dumps() {
        return dumps;
    }

    synchronized Map<String, Double> parts() {
        return new HashMap<>(parts);
    }

    synchronized Map<String, Double> sites() {
        return new HashMap<>(sites);
    }

    synchronized String renderFlame() {
        return flame.render();
    }

    /** The last dump that failed, or null. */
    synchronized String failure() {
        return failure;
    }

    @Override
    public void close() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
