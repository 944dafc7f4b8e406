package dev.seckill.bench.measure;

import dev.seckill.bench.report.BenchReport;
import dev.seckill.bench.report.Section;
import dev.seckill.testkit.Stack;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import static dev.seckill.bench.report.Section.f;
import static dev.seckill.bench.report.Section.round;

/**
 * Each process's CPU and resident memory as sysstat's pidstat reports them ({@code pidstat -u -r -h -H -p ALL 1}, its
 * output kept in {@value #FILE}), summed per part of the stack, the bench (itself and its children) and the machine
 * (every process); from them the CPU over a stretch of the run and the memory.
 */
public final class Sampler implements AutoCloseable {

    public static final String FILE = "pidstat.txt.gz";
    public static final List<String> COMPONENTS = List.of("service", "edge", "writer", "redis", "kafka", "db");
    public static final String SHORT_CIRCUITS = "seckill_edge_sold_out_short_circuits_total";
    /** CPU keys besides the components: the bench, every process's, and the machine's whole (busy and idle). */
    public static final String BENCH = "bench";
    public static final String MACHINE = "machine";
    public static final String MACHINE_ALL = "machine all";
    public static final int MACHINE_CORES = Runtime.getRuntime().availableProcessors();
    private static final long INTERVAL = Duration.ofSeconds(1).toNanos();

    /** One pidstat interval, stamped (System.nanoTime()) as it arrived: kB resident, µs of CPU used so far. */
    public record Sample(long nanos, Map<String, Long> rssKb, Map<String, Long> cpuMicros) {
    }

    /** Resident memory of one component: the largest and the mean sample of the run, the largest during the sale. */
    public record Memory(String component, double maxMb, double meanMb, double maxMbDuringSale) {
    }

    /** One process's line of a pidstat report: its pid, %CPU (of one core) and kB resident. */
    record Line(long pid, double cpuPercent, long rssKb) {
    }

    private final List<Sample> samples = new CopyOnWriteArrayList<>();
    private final Map<String, Long> marks = new LinkedHashMap<>();
    private final Map<Long, String> partOf = new HashMap<>();
    private final Stack stack;
    private final Process pidstat;
    private final Thread reader;

    /** Starts pidstat, its report kept in {@code dir}/{@value #FILE}. */
    public Sampler(Stack stack, Path dir) throws IOException {
        this.stack = stack;
        Files.createDirectories(dir);
        // Line-buffered, so that each interval is read as pidstat prints it.
        pidstat = new ProcessBuilder("stdbuf", "-oL", "pidstat", "-u", "-r", "-h", "-H", "-p", "ALL", "1")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        PrintWriter raw = new PrintWriter(new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(
                dir.resolve(FILE))), StandardCharsets.UTF_8));
        reader = Thread.ofPlatform().daemon().name("bench-pidstat").start(() -> read(pidstat.inputReader(), raw));
    }

    /** Marks the start of a phase (for the charts). */
    public synchronized void mark(String phase) {
        marks.put(phase, System.nanoTime());
    }

    public synchronized Map<String, Long> marks() {
        return new LinkedHashMap<>(marks);
    }

    public List<Sample> samples() {
        return new ArrayList<>(samples);
    }

    /** Reads pidstat's report as it comes, an interval at a time, into samples; and keeps it in {@code raw}. */
    private void read(BufferedReader in, PrintWriter raw) {
        try (raw) {
            read(in, raw::println, interval -> add(System.nanoTime(), interval));
        } catch (IOException | RuntimeException e) {
            System.err.println("bench: reading pidstat failed: " + e);
        }
    }

    /** Reads a pidstat report: each line to {@code raw}, each interval's processes to {@code interval} as it ends. */
    static void read(BufferedReader in, Consumer<String> raw, Consumer<List<Line>> interval) throws IOException {
        Map<String, Integer> columns = Map.of();
        List<Line> lines = new ArrayList<>();
        for (String l = in.readLine(); l != null; l = in.readLine()) {
            raw.accept(l);
            if (!l.isBlank() && !l.startsWith("#") && !columns.isEmpty()) {
                lines.add(line(columns, l));
                continue;
            }
            if (!lines.isEmpty()) {
                interval.accept(List.copyOf(lines));
                lines.clear();
            }
            if (l.startsWith("#")) {
                columns = columns(l);
            }
        }
        if (!lines.isEmpty()) {
            interval.accept(lines);
        }
    }

    /** Each column's index in a pidstat header ("# Time UID PID %usr ... %CPU CPU ... RSS %MEM Command"). */
    static Map<String, Integer> columns(String header) {
        String[] f = header.substring(1).trim().split("\\s+");
        return IntStream.range(0, f.length).boxed().collect(LinkedHashMap::new, (m, i) -> m.put(f[i], i), Map::putAll);
    }

    static Line line(Map<String, Integer> columns, String line) {
        String[] f = line.trim().split("\\s+");
        return new Line(Long.parseLong(f[columns.get("PID")]), Double.parseDouble(f[columns.get("%CPU")]),
                Long.parseLong(f[columns.get("RSS")]));
    }

    private void add(long nanos, List<Line> interval) {
        refreshParts();
        Sample last = samples.isEmpty() ? null : samples.getLast();
        samples.add(sample(nanos, last == null ? INTERVAL : nanos - last.nanos(), interval, this::part, last));
    }

    /**
     * The sample of one interval of {@code nanos} after {@code last} (null for the first): each part's CPU added to
     * what it had used, its memory the sum of its processes' now.
     */
    static Sample sample(long nanos, long elapsed, List<Line> interval, LongFunction<String> part,
                         Sample last) {
        Map<String, Long> rss = new LinkedHashMap<>();
        Map<String, Long> cpu = new LinkedHashMap<>();
        Stream.concat(COMPONENTS.stream(), Stream.of(BENCH, MACHINE)).forEach(k -> {
            rss.put(k, 0L);
            cpu.put(k, last == null ? 0L : last.cpuMicros().getOrDefault(k, 0L));
        });
        cpu.put(MACHINE_ALL, (last == null ? 0L : last.cpuMicros().get(MACHINE_ALL)) + MACHINE_CORES * elapsed / 1000);
        for (Line l : interval) {
            long micros = Math.round(l.cpuPercent() / 100 * elapsed / 1000);
            String p = part.apply(l.pid());
            if (p != null) {
                cpu.merge(p, micros, Long::sum);
                rss.merge(p, l.rssKb(), Long::sum);
            }
            cpu.merge(MACHINE, micros, Long::sum);
        }
        rss.remove(BENCH);
        rss.remove(MACHINE);
        return new Sample(nanos, rss, cpu);
    }

    private synchronized String part(long pid) {
        return partOf.get(pid);
    }

    /**
     * Which part each live process is: a component's pid file's, else its numbered nodes' (on the cluster), nginx's
     * workers too; the bench and its children (wrk, redis-benchmark). A process seen once keeps its part after it
     * exits.
     */
    private synchronized void refreshParts() {
        for (String c : COMPONENTS) {
            Stream<String> nodes = stack.pid(c) > 0 ? Stream.of(c)
                    : IntStream.rangeClosed(1, 9).mapToObj(i -> c + "-" + i);
            nodes.mapToLong(stack::pid).filter(pid -> pid > 0).boxed().flatMap(pid -> ProcessHandle.of(pid).stream())
                    .flatMap(p -> c.equals("edge") ? Stream.concat(Stream.of(p), p.children()) : Stream.of(p))
                    .forEach(p -> partOf.put(p.pid(), c));
        }
        ProcessHandle self = ProcessHandle.current();
        Stream.concat(Stream.of(self), self.descendants()).forEach(p -> partOf.put(p.pid(), BENCH));
    }

    /** A window's cores: each component, the bench (its client, wrk, ...), "others" and "idle", adding up. */
    public record Cpu(String window, double seconds, Map<String, Double> cores) {
    }

    /** Per component (and bench, others): cores, and CPU microseconds per unit of work; and the machine's in all. */
    public record PerUnit(String window, long units, double seconds, Map<String, Double> cores,
                   Map<String, Double> microsPerUnit, double machineMicrosPerUnit) {

        public Cpu asCpu() {
            return new Cpu(window, seconds, cores);
        }
    }

    /** Opens a CPU window now: its start, for {@link #close}. */
    public long open() {
        return System.nanoTime();
    }

    /**
     * The CPU window opened at {@code from}, closed now, per unit of work done in it; once pidstat reported the
     * interval that holds its end (within a few seconds).
     */
    public PerUnit close(String name, long from, long units) throws InterruptedException {
        long to = System.nanoTime();
        awaitSampleAfter(to);
        Cpu cpu = cpu(name, samples(), from, to);
        Map<String, Double> per = new LinkedHashMap<>(cpu.cores());
        per.remove("idle");
        per.replaceAll((k, cores) -> units > 0 ? cores * cpu.seconds() * 1e6 / units : 0);
        double machine = per.values().stream().mapToDouble(Double::doubleValue).sum();
        per.replaceAll((k, micros) -> round(micros));
        return new PerUnit(name, units, cpu.seconds(), cpu.cores(), per, round(machine));
    }

    /** Waits (at most 3 intervals) for pidstat's first report after {@code nanos}. */
    public void awaitSampleAfter(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + 3 * INTERVAL;
        while ((samples.isEmpty() || samples.getLast().nanos() < nanos) && System.nanoTime() < deadline
                && pidstat.isAlive()) {
            Thread.sleep(50);
        }
    }

    /**
     * From {@code from} to {@code to}: each interval's CPU counts for the share of it inside the window (pidstat
     * reports an interval's average), the window clipped to the samples.
     */
    public static Cpu cpu(String window, List<Sample> samples, long from, long to) {
        if (samples.size() < 2) {
            return new Cpu(window, 0, Map.of());
        }
        long a = Math.max(from, samples.getFirst().nanos());
        long b = Math.min(to, samples.getLast().nanos());
        return b <= a ? new Cpu(window, 0, Map.of())
                : new Cpu(window, round((b - a) / 1e9), cores(at(samples, a), at(samples, b)));
    }

    /** The samples' CPU counters at {@code t} (inside their span), interpolated between the two around it. */
    static Sample at(List<Sample> samples, long t) {
        int i = 1;
        while (i < samples.size() - 1 && samples.get(i).nanos() < t) {
            i++;
        }
        Sample x = samples.get(i - 1);
        Sample y = samples.get(i);
        double share = y.nanos() == x.nanos() ? 1 : (double) (t - x.nanos()) / (y.nanos() - x.nanos());
        Map<String, Long> cpu = new LinkedHashMap<>();
        x.cpuMicros().forEach((k, v) -> cpu.put(k, v + Math.round((y.cpuMicros().getOrDefault(k, v) - v) * share)));
        return new Sample(t, y.rssKb(), cpu);
    }

    /** Each part's cores between two samples: its share of all the machine's CPU time (busy and idle) times its cores. */
    public static Map<String, Double> cores(Sample a, Sample b) {
        long all = ticks(a, b, MACHINE_ALL);
        double perCore = all > 0 ? (double) all / MACHINE_CORES : (b.nanos() - a.nanos()) / 1e3;
        Map<String, Double> cores = new LinkedHashMap<>();
        double accounted = 0;
        for (String k : a.cpuMicros().keySet()) {
            if (!k.equals(MACHINE) && !k.equals(MACHINE_ALL)) {
                double c = Math.max(0, ticks(a, b, k)) / perCore;
                cores.put(k, round(c));
                accounted += c;
            }
        }
        double busy = Math.max(0, ticks(a, b, MACHINE)) / perCore;
        cores.put("others", round(Math.max(0, busy - accounted)));
        cores.put("idle", round(Math.max(0, MACHINE_CORES - Math.max(busy, accounted))));
        return cores;
    }

    /**
     * The CPU section: each part's cores over the flash sale (from its start to its end), at rest before it (when
     * measured), and over the whole bench.
     */
    public static Section cpuSection(List<Sample> samples, long saleStart, long saleEnd, Cpu atRest) {
        List<Cpu> cpu = new ArrayList<>(List.of(cpu("flash sale", samples, saleStart, saleEnd)));
        if (atRest != null) {
            cpu.add(atRest);
        }
        if (!samples.isEmpty()) {
            cpu.add(cpu("whole bench", samples, samples.getFirst().nanos(), samples.getLast().nanos()));
        }
        Section s = new Section("cpu", "Where the CPU went (cores, from pidstat every second; the machine is shared, "
                + "\"others\" is every process outside this bench)").data(cpu);
        List<String> keys = cpu.isEmpty() ? List.of() : List.copyOf(cpu.getFirst().cores().keySet());
        s.table(Stream.concat(Stream.of("window", "seconds"), keys.stream()).toArray(String[]::new));
        cpu.forEach(c -> s.row(Stream.concat(Stream.of(c.window(), f("%.1f", c.seconds())),
                keys.stream().map(k -> f("%.2f", c.cores().getOrDefault(k, 0.0)))).toArray()));
        return s.text("![CPU over the bench](%s)", BenchReport.CPU_PNG).text("Each process's CPU and memory every "
                + "second, as pidstat reported them: %s.", FILE);
    }

    private static long ticks(Sample a, Sample b, String key) {
        return b.cpuMicros().getOrDefault(key, 0L) - a.cpuMicros().getOrDefault(key, 0L);
    }

    /** The memory section (and the service's RSS target): each component over the run and during the sale. */
    public static Section memory(List<Sample> samples, long saleStart, long saleEnd) {
        List<Memory> memory = COMPONENTS.stream().map(c -> {
            LongSummaryStatistics all = samples.stream().mapToLong(s -> s.rssKb().getOrDefault(c, 0L))
                    .filter(kb -> kb > 0).summaryStatistics();
            // The interval that holds the sale's end counts too: a sale shorter than pidstat's second has one.
            long sale = samples.stream().filter(s -> s.nanos() >= saleStart && s.nanos() <= saleEnd + INTERVAL)
                    .mapToLong(s -> s.rssKb().getOrDefault(c, 0L)).max().orElse(0);
            return new Memory(c, round(Math.max(0, all.getMax()) / 1024.0), round(all.getAverage() / 1024.0),
                    round(sale / 1024.0));
        }).toList();
        Section s = new Section("memory", "Resident memory (RSS, pidstat every second)").data(memory)
                .table("component", "max MB", "mean MB", "max MB during the flash sale");
        memory.forEach(m -> s.row(m.component(), f("%.1f", m.maxMb()), f("%.1f", m.meanMb()),
                f("%.1f", m.maxMbDuringSale())));
        double rss = memory.getFirst().maxMb(); // the service's: COMPONENTS begins with it
        return s.goal("service RSS during the run "
                + "(max sample)", f("%.0f MB", rss), "<= 512 MB", rss > 0 && rss <= 512);
    }

    /** Stops pidstat; its report is complete once this returns (or after 10 s). */
    @Override
    public void close() throws InterruptedException {
        // By its handle: Process.destroy() would also close the stream the reader is at; this one ends it.
        pidstat.toHandle().destroy();
        reader.join(Duration.ofSeconds(10));
    }
}
