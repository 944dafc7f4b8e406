package dev.seckill.bench.measure;

import dev.seckill.bench.report.BenchReport;
import dev.seckill.bench.report.Section;
import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static dev.seckill.bench.report.Section.f;
import static dev.seckill.bench.report.Section.round;

/**
 * Samples /proc (RSS, CPU ticks of each component, the bench, the machine) and, on its own thread, a sale's stats;
 * from the samples, the CPU used over one stretch of the run (between a sample taken as it opens and one as it
 * closes) and the memory.
 */
public final class Sampler implements AutoCloseable {

    public static final List<String> COMPONENTS = List.of("service", "edge", "writer", "redis", "kafka", "db");
    public static final String SHORT_CIRCUITS = "seckill_edge_sold_out_short_circuits_total";
    /** CPU keys besides the components: the bench, the machine's busy ticks, and all its ticks (busy and idle). */
    public static final String BENCH = "bench";
    public static final String MACHINE = "machine";
    public static final String MACHINE_ALL = "machine all";
    public static final int MACHINE_CORES = (int) Math.max(1, read("/proc/stat").lines()
            .filter(l -> l.matches("cpu[0-9]+ .*")).count());
    private static final long WATCHING = Duration.ofMillis(100).toNanos();

    /** One resource sample, stamped (System.nanoTime()) after its reads: kB resident, CPU ticks used so far. */
    public record Sample(long nanos, Map<String, Long> rssKb, Map<String, Long> cpuTicks) {
    }

    /** A poll of the watched sale's stats. */
    public record SaleSample(long nanos, long saleId, StackAdmin.SaleStats stats) {
    }

    /** Resident memory of one component: the largest and the mean sample of the run, the largest during the sale. */
    public record Memory(String component, double maxMb, double meanMb, double maxMbDuringSale) {
    }

    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(2,
            Thread.ofPlatform().daemon().name("bench-sampler-", 0).factory());
    private final Map<Long, Sample> samples = new ConcurrentSkipListMap<>();
    private final ConcurrentLinkedQueue<SaleSample> saleSamples = new ConcurrentLinkedQueue<>();
    private final Map<String, Long> marks = new LinkedHashMap<>();
    private final Stack stack;
    private final StackAdmin admin;
    private final long every;
    private volatile long watched = -1;

    public Sampler(Stack stack, StackAdmin admin, Duration every) {
        this.stack = stack;
        this.admin = admin;
        this.every = every.toNanos();
        timer.execute(this::tick);
        timer.scheduleAtFixedRate(this::poll, 0, WATCHING, TimeUnit.NANOSECONDS);
    }

    /** Polls this sale's stats from now on; -1 stops. */
    public void watch(long saleId) {
        watched = saleId;
    }

    /** Marks the start of a phase (for the charts), with a resource sample taken there and then. */
    public synchronized void mark(String phase) {
        sampleNow();
        marks.put(phase, System.nanoTime());
    }

    public void sampleNow() {
        Sample s = resources();
        samples.put(s.nanos(), s);
    }

    public synchronized Map<String, Long> marks() {
        return new LinkedHashMap<>(marks);
    }

    public List<Sample> samples() {
        return new ArrayList<>(samples.values());
    }

    public List<SaleSample> saleSamples() {
        return new ArrayList<>(saleSamples);
    }

    /** A sample, and the next one scheduled: sooner while a sale is watched, so a short sale gets several. */
    private void tick() {
        long t = System.nanoTime();
        sampleNow();
        long period = watched > 0 ? Math.min(every, WATCHING) : every;
        timer.schedule(this::tick, period - (System.nanoTime() - t), TimeUnit.NANOSECONDS);
    }

    private void poll() {
        long sale = watched;
        try {
            if (sale > 0) {
                saleSamples.add(new SaleSample(System.nanoTime(), sale, admin.stats(sale)));
            }
        } catch (IOException | InterruptedException e) {
            // a missed sample (the service is busy or restarting, or the sampler closed); the next one comes soon
        }
    }

    private Sample resources() {
        Map<String, Long> rss = new LinkedHashMap<>();
        Map<String, Long> cpu = new LinkedHashMap<>();
        for (String c : COMPONENTS) {
            rss.put(c, processes(c).mapToLong(p -> vmRssKb(p.pid())).sum());
            cpu.put(c, processes(c).mapToLong(p -> cpuTicks(p.pid())).sum());
        }
        ProcessHandle self = ProcessHandle.current();
        cpu.put(BENCH, Stream.concat(Stream.of(self), self.descendants()).mapToLong(p -> cpuTicks(p.pid())).sum());
        // The "cpu" line: user nice system idle iowait irq softirq steal; busy is all but idle and iowait.
        String[] f = read("/proc/stat").lines().findFirst().orElse("").split("\\s+");
        long[] t = f.length > 8 ? Arrays.stream(f, 1, 9).mapToLong(Long::parseLong).toArray() : new long[8];
        cpu.put(MACHINE, t[0] + t[1] + t[2] + t[5] + t[6] + t[7]);
        cpu.put(MACHINE_ALL, Arrays.stream(t).sum());
        return new Sample(System.nanoTime(), rss, cpu);
    }

    /** A component's processes: its pid file's, else its numbered nodes' (on the cluster); nginx's workers too. */
    private Stream<ProcessHandle> processes(String component) {
        Stream<String> nodes = stack.pid(component) > 0 ? Stream.of(component)
                : IntStream.rangeClosed(1, 9).mapToObj(i -> component + "-" + i);
        return nodes.mapToLong(stack::pid).filter(pid -> pid > 0).boxed().flatMap(pid -> ProcessHandle.of(pid).stream())
                .flatMap(p -> component.equals("edge") ? Stream.concat(Stream.of(p), p.children()) : Stream.of(p));
    }

    /** utime + stime: fields 14 and 15 of /proc/PID/stat, counted after the command in parentheses. */
    private static long cpuTicks(long pid) {
        String[] f = read("/proc/" + pid + "/stat").replaceFirst("(?s).*\\) ", "").split(" ");
        return f.length > 12 ? Long.parseLong(f[11]) + Long.parseLong(f[12]) : 0;
    }

    private static long vmRssKb(long pid) {
        return read("/proc/" + pid + "/status").lines().filter(l -> l.startsWith("VmRSS:"))
                .mapToLong(l -> Long.parseLong(l.replaceAll("\\D", ""))).sum();
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

    /** Opens a CPU window on a sample taken now: its start, for {@link #close}. */
    public long open() {
        sampleNow();
        return System.nanoTime();
    }

    /** The CPU window opened at {@code from}, closed now on a sample, per unit of work done in it. */
    public PerUnit close(String name, long from, long units) {
        long to = System.nanoTime();
        sampleNow();
        Cpu cpu = cpu(name, samples(), from, to);
        Map<String, Double> per = new LinkedHashMap<>(cpu.cores());
        per.remove("idle");
        per.replaceAll((k, cores) -> units > 0 ? cores * cpu.seconds() * 1e6 / units : 0);
        double machine = per.values().stream().mapToDouble(Double::doubleValue).sum();
        per.replaceAll((k, micros) -> round(micros));
        return new PerUnit(name, units, cpu.seconds(), cpu.cores(), per, round(machine));
    }

    /** From the last sample at or before {@code from} to the first at or after {@code to}, or the nearest inside. */
    public static Cpu cpu(String window, List<Sample> samples, long from, long to) {
        if (samples.isEmpty()) {
            return new Cpu(window, 0, Map.of());
        }
        Sample a = samples.stream().filter(s -> s.nanos() <= from).reduce((x, y) -> y)
                .orElse(samples.getFirst());
        Sample b = samples.stream().filter(s -> s.nanos() >= to).findFirst().orElse(samples.getLast());
        return b.nanos() <= a.nanos() ? new Cpu(window, 0, Map.of())
                : new Cpu(window, round((b.nanos() - a.nanos()) / 1e9), cores(a, b));
    }

    /** Each part's cores between two samples: its share of all the machine's ticks (busy and idle) times its cores. */
    public static Map<String, Double> cores(Sample a, Sample b) {
        long all = ticks(a, b, MACHINE_ALL);
        double perCore = all > 0 ? (double) all / MACHINE_CORES : (b.nanos() - a.nanos()) / 1e9 * 100;
        Map<String, Double> cores = new LinkedHashMap<>();
        double accounted = 0;
        for (String k : a.cpuTicks().keySet()) {
            if (!k.equals(MACHINE) && !k.equals(MACHINE_ALL)) {
                double c = Math.max(0, ticks(a, b, k)) / perCore;
                cores.put(k, round(c));
                accounted += c;
            }
        }
        double busy = Math.max(0, ticks(a, b, MACHINE)) / perCore;
        cores.put("others", round(Math.max(0, busy - accounted)));
        // A process's ticks and the machine's are read a moment apart: the busy share is the larger of the two.
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
        Section s = new Section("cpu", "Where the CPU went (cores, from /proc; the machine is shared, \"others\" is "
                + "everything outside this bench)").data(cpu);
        List<String> keys = cpu.isEmpty() ? List.of() : List.copyOf(cpu.getFirst().cores().keySet());
        s.table(Stream.concat(Stream.of("window", "seconds"), keys.stream()).toArray(String[]::new));
        cpu.forEach(c -> s.row(Stream.concat(Stream.of(c.window(), f("%.1f", c.seconds())),
                keys.stream().map(k -> f("%.2f", c.cores().getOrDefault(k, 0.0)))).toArray()));
        return s.text("![CPU over the bench](%s)", BenchReport.CPU_PNG);
    }

    private static long ticks(Sample a, Sample b, String key) {
        return b.cpuTicks().getOrDefault(key, 0L) - a.cpuTicks().getOrDefault(key, 0L);
    }

    /** A file's text, or "" when it cannot be read (as when its process has just exited). */
    public static String read(String path) {
        try {
            return Files.readString(Path.of(path));
        } catch (IOException e) {
            return "";
        }
    }

    /** The memory section (and the service's RSS target): each component over the run and during the sale. */
    public static Section memory(List<Sample> samples, long saleStart, long saleEnd) {
        List<Memory> memory = COMPONENTS.stream().map(c -> {
            LongSummaryStatistics all = samples.stream().mapToLong(s -> s.rssKb().getOrDefault(c, 0L))
                    .filter(kb -> kb > 0).summaryStatistics();
            long sale = samples.stream().filter(s -> s.nanos() >= saleStart && s.nanos() <= saleEnd)
                    .mapToLong(s -> s.rssKb().getOrDefault(c, 0L)).max().orElse(0);
            return new Memory(c, round(Math.max(0, all.getMax()) / 1024.0), round(all.getAverage() / 1024.0),
                    round(sale / 1024.0));
        }).toList();
        Section s = new Section("memory", "Resident memory (VmRSS, sampled every 250 ms)").data(memory)
                .table("component", "max MB", "mean MB", "max MB during the flash sale");
        memory.forEach(m -> s.row(m.component(), f("%.1f", m.maxMb()), f("%.1f", m.meanMb()),
                f("%.1f", m.maxMbDuringSale())));
        double rss = memory.getFirst().maxMb(); // the service's: COMPONENTS begins with it
        return s.text("![resident memory over the bench](%s)", BenchReport.MEMORY_PNG).goal("service RSS during the run "
                + "(max sample)", f("%.0f MB", rss), "<= 512 MB", rss > 0 && rss <= 512);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
