package dev.seckill.bench.measure;

import dev.seckill.bench.Bench;
import dev.seckill.bench.report.Section;
import com.sun.tools.attach.VirtualMachine;
import one.convert.Arguments;
import one.convert.JfrToFlame;
import one.jfr.JfrReader;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** --profile: async-profiler's agent, attached to the service, records CPU, wall and allocation in one JFR file. */
public final class ServiceProfiler implements AutoCloseable {

    static final String JFR = "service-profile.jfr";
    static final String OPTIONS = "event=cpu,interval=10ms,wall=50ms,alloc=512k";

    record Graph(String kind, String file, String unit, double total, List<Frame> top) {
    }

    record Frame(String name, double value, double share) {
    }

    /** The section's data: the recording's CPU engine, options and window, or why there is none. */
    record Profile(String failure, long pid, String engine, String options, double seconds, List<Graph> graphs) {
    }

    private final long pid;
    private final Path dir;
    private final Path out;
    private final long started = System.nanoTime();
    private String engine = "-";
    private String failure;
    private boolean running;

    private ServiceProfiler(long pid, Path dir, Path out) {
        this.pid = pid;
        this.dir = dir;
        this.out = out;
    }

    /** Starts recording the JVM {@code pid}, with the agent library and its log in {@code dir}; never throws. */
    public static ServiceProfiler start(long pid, Path dir, Path out) {
        ServiceProfiler p = new ServiceProfiler(pid, dir, out);
        String arch = System.getProperty("os.arch").equals("aarch64") ? "linux-arm64" : "linux-x64";
        try (InputStream in = ServiceProfiler.class.getResourceAsStream("/" + arch + "/libasyncProfiler.so")) {
            Files.createDirectories(out);
            if (Files.notExists(dir.resolve("libasyncProfiler.so"))) { // copied once: the service may have it loaded
                Files.copy(Objects.requireNonNull(in, "no " + arch + " agent in async-profiler's jar"),
                        dir.resolve("libasyncProfiler.so"));
            }
            p.command("start," + OPTIONS + ",jfr,file=" + out.resolve(JFR));
            p.running = true;
            Bench.say("profiling the service (pid " + pid + ") with async-profiler");
        } catch (IOException | RuntimeException e) {
            p.failure = e.getMessage();
            Bench.say("--profile: " + e.getMessage());
        }
        return p;
    }

    /** Stops the recording and writes the flame graphs; the report's section, or why there is none. */
    public Section stop() {
        double seconds = Section.round((System.nanoTime() - started) / 1e9);
        List<Graph> graphs = List.of();
        try {
            if (failure == null) {
                command("stop,jfr,file=" + out.resolve(JFR));
                running = false;
                graphs = List.of(graph("cpu", "samples", false), graph("wall", "samples", false),
                        graph("alloc", "MB", true));
            }
        } catch (IOException | RuntimeException e) {
            failure = "stopping or converting the recording: " + e.getMessage();
            Bench.say("--profile: " + failure);
        }
        Section s = new Section("profile", "Where the time goes in the service (--profile)")
                .data(new Profile(failure, pid, engine, OPTIONS, seconds, graphs));
        if (failure != null) {
            return s.text("Not profiled: %s.", failure);
        }
        s.text("async-profiler 4.2 in the service's JVM (pid %d) recorded CPU (engine %s), wall clock and allocation "
                + "together over %.1f s, the ceilings to the end of the flood (`%s`): [CPU](profile-cpu.html), [wall "
                + "clock](profile-wall.html), [allocation](profile-alloc.html), from `%s`. The wall clock samples all "
                + "platform threads, idle or not; a virtual thread parked on Redis or Kafka is unmounted, not in it. A "
                + "profiled run is slower: compare speeds of unprofiled runs.", pid, engine, seconds, OPTIONS, JFR);
        for (Graph g : graphs) {
            String number = g.unit().equals("MB") ? "%,.1f" : "%,.0f";
            s.text("**%s**: " + number + " %s; top frames by self %s (for allocation the leaf is the class allocated)",
                    g.kind(), g.total(), g.unit(), g.unit()).table("frame", g.unit(), "share");
            g.top().forEach(f -> s.row(f.name(), Section.f(number, f.value()), Section.f("%.1f %%", f.share() * 100)));
        }
        return s;
    }

    /** Writes profile-KIND.html and its stacks, profile-KIND.collapsed (in bytes when {@code total}); the engine. */
    private Graph graph(String kind, String unit, boolean total) throws IOException {
        String html = "profile-" + kind + ".html";
        Path collapsed = out.resolve("profile-" + kind + ".collapsed");
        Arguments args = new Arguments("--" + kind, "--dot", "--title", "Service: " + kind, "-o", "collapsed");
        args.total = total;
        try (JfrReader jfr = new JfrReader(out.resolve(JFR).toString())) {
            JfrToFlame flame = new JfrToFlame(jfr, args);
            flame.convert();
            engine = jfr.settings.getOrDefault("engine", engine); // the CPU engine async-profiler recorded with
            flame.dump(Files.newOutputStream(collapsed)); // each dump closes its stream; the HTML's spends the tree
            args.output = "html";
            flame.dump(Files.newOutputStream(out.resolve(html)));
        }
        return top(kind, html, unit, Files.readAllLines(collapsed), total ? 1 / 1048576.0 : 1);
    }

    /** The total and the 8 top frames by self value of collapsed stacks ("a;b;leaf 12"), frame types dropped. */
    public static Graph top(String kind, String file, String unit, List<String> collapsed, double scale) {
        Map<String, Double> self = new HashMap<>();
        for (String line : collapsed) {
            int space = line.lastIndexOf(' ');
            if (space > 0) {
                String leaf = line.substring(line.lastIndexOf(';', space) + 1, space).replaceAll("_\\[.]$", "");
                self.merge(leaf, Long.parseLong(line.substring(space + 1)) * scale, Double::sum);
            }
        }
        double total = self.values().stream().mapToDouble(Double::doubleValue).sum();
        List<Frame> top = self.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .limit(8).map(e -> new Frame(e.getKey(), Section.round(e.getValue()), e.getValue() / total)).toList();
        return new Graph(kind, file, unit, Section.round(total), top);
    }

    /** One agent command in the service; async-profiler's own message, from its log, when it fails. */
    private void command(String args) throws IOException {
        Path log = dir.resolve("profiler.log");
        Files.deleteIfExists(log);
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            try {
                vm.loadAgentPath(dir.resolve("libasyncProfiler.so").toString(), args + ",log=" + log);
            } finally {
                vm.detach();
            }
        } catch (Exception e) {
            String why = Files.exists(log) ? Files.readString(log).strip() : "";
            throw new IOException(args + " in pid " + pid + " failed: " + e + (why.isEmpty() ? "" : ": " + why), e);
        }
    }

    /** Stops a recording still running (the bench failed on the way): the service must not record on. */
    @Override
    public void close() {
        if (running) {
            running = false;
            try {
                command("stop");
            } catch (IOException e) {
                Bench.say("--profile: could not stop async-profiler in the service: " + e.getMessage());
            }
        }
    }
}
