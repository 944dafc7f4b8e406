package dev.seckill.bench;

import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * Samples while a bench runs, every {@code every} (every 100 ms while a sale is watched): the resident memory and CPU
 * time of each component of the stack (/proc/PID/status and /proc/PID/stat for the pids bin/seckill recorded; the
 * edge is nginx's master plus its workers), of the bench itself and of the whole machine; and, while a sale is
 * watched, its stats and the edge's short-circuit counter every 100 ms. The two run on separate daemon threads: the
 * stats come over HTTP from a service the sale keeps busy, and a slow answer there must not leave holes in the CPU
 * samples (it once left a 0.72 s sale with samples over 0.2 s of it). {@link #mark} also takes a resource sample at
 * once, so that a phase's window starts on a sample; {@link #sampleNow} ends one.
 */
final class Sampler implements AutoCloseable {

    static final List<String> COMPONENTS = List.of("service", "edge", "writer", "redis", "kafka", "db");
    static final String SHORT_CIRCUITS = "seckill_edge_sold_out_short_circuits_total";
    private static final Duration WATCHING = Duration.ofMillis(100);

    /** CPU time keys besides the components: this bench (its JVM and the tools it runs) and the whole machine. */
    static final String BENCH = "bench";
    static final String MACHINE = "machine";
    /** The cluster's numbered nodes of one kind that are looked for (it runs at most six, the Redis nodes). */
    private static final int MAX_NODES_OF_A_KIND = 9;

    /** Every CPU tick of the machine, busy or idle, of all its CPUs (the clock a window's cores are measured by). */
    static final String MACHINE_ALL = "machine all";
    /** The machine's CPUs, as /proc/stat counts them (the ticks of {@link #MACHINE_ALL} are spread over them). */
    static final int MACHINE_CORES = machineCores();

    /**
     * One resource sample, stamped (System.nanoTime()) right after its /proc reads. {@code cpuTicks}: CPU time used
     * so far (user + system, in clock ticks of 1/100 s) by each component, by {@link #BENCH}, by every process of the
     * machine together ({@link #MACHINE}, from /proc/stat) and every tick busy or idle ({@link #MACHINE_ALL}), so a
     * window's share of the cores that went elsewhere can be told.
     */
    record Sample(long nanos, Map<String, Long> rssKb, Map<String, Long> cpuTicks) {
    }

    /** One poll of a watched sale: its stats and the edge's short-circuit counter, stamped when they were read. */
    record SaleSample(long nanos, long saleId, Admin.SaleStats stats, double shortCircuits) {
    }

    private final Stack stack;
    private final Admin admin;
    private final Duration every;
    private final List<Sample> samples = new ArrayList<>();
    private final List<SaleSample> saleSamples = new ArrayList<>();
    private final Map<String, Long> marks = new LinkedHashMap<>();
    private final Thread thread;
    private final Thread watcher;
    private volatile long watched = -1;
    private volatile boolean running = true;

    Sampler(Stack stack, Admin admin, Duration every) {
        this.stack = stack;
        this.admin = admin;
        this.every = every;
        this.thread = Thread.ofPlatform().daemon().name("bench-sampler").start(this::loop);
        this.watcher = Thread.ofPlatform().daemon().name("bench-sale-watcher").start(this::watchLoop);
    }

    /** Adds the stats of this sale (and the edge counter) to the samples from now on; -1 stops. */
    void watch(long saleId) {
        watched = saleId;
    }

    /** Marks the start of a phase of the bench (for the charts), with a resource sample taken there and then. */
    void mark(String phase) {
        sampleNow();
        synchronized (marks) {
            marks.put(phase, System.nanoTime());
        }
    }

    /** Takes a resource sample now, from the caller's thread (e.g. at the end of a phase, so its window ends on one). */
    void sampleNow() {
        Sample s = resources();
        synchronized (samples) {
            samples.add(s);
            // Two threads add: keep the list in time order.
            for (int i = samples.size() - 1; i > 0 && samples.get(i - 1).nanos() > samples.get(i).nanos(); i--) {
                samples.set(i, samples.get(i - 1));
                samples.set(i - 1, s);
            }
        }
    }

    Map<String, Long> marks() {
        synchronized (marks) {
            return new LinkedHashMap<>(marks);
        }
    }

    List<Sample> samples() {
        synchronized (samples) {
            return new ArrayList<>(samples);
        }
    }

    List<SaleSample> saleSamples() {
        synchronized (saleSamples) {
            return new ArrayList<>(saleSamples);
        }
    }

    private void loop() {
        while (running) {
            long t = System.nanoTime();
            sampleNow();
            // Finer while a sale is watched: a short sale still gets several CPU points.
            if (!pause(watched > 0 ? Math.min(every.toNanos(), WATCHING.toNanos()) : every.toNanos(), t)) {
                return;
            }
        }
    }

    private void watchLoop() {
        while (running) {
            long t = System.nanoTime();
            long sale = watched;
            if (sale > 0) {
                try {
                    Admin.SaleStats stats = admin.stats(sale);
                    double shortCircuits = admin.edgeMetrics().getOrDefault(SHORT_CIRCUITS, 0.0);
                    // Stamped when the reads are done: by then the stats were true.
                    synchronized (saleSamples) {
                        saleSamples.add(new SaleSample(System.nanoTime(), sale, stats, shortCircuits));
                    }
                } catch (IOException e) {
                    // a missed sample (the service is busy or restarting); the next one comes soon
                } catch (InterruptedException e) {
                    return;
                }
            }
            if (!pause(WATCHING.toNanos(), t)) {
                return;
            }
        }
    }

    /** Sleeps the rest of a period that began at {@code since}; false when interrupted (closing). */
    private static boolean pause(long periodNanos, long since) {
        long sleep = periodNanos - (System.nanoTime() - since);
        if (sleep > 0) {
            try {
                Thread.sleep(Duration.ofNanos(sleep));
            } catch (InterruptedException e) {
                return false;
            }
        }
        return true;
    }

    /** The /proc reads of one resource sample; stamped once they are done (a few ms at most). */
    private Sample resources() {
        Map<String, Long> rss = new LinkedHashMap<>();
        Map<String, Long> cpu = new LinkedHashMap<>();
        for (String c : COMPONENTS) {
            rss.put(c, rssKb(c));
            cpu.put(c, processes(c).map(Sampler::cpuTicks).sum());
        }
        ProcessHandle self = ProcessHandle.current();
        cpu.put(BENCH, cpuTicks(self.pid()) + self.descendants().mapToLong(p -> cpuTicks(p.pid())).sum());
        long[] machine = machineTicks();
        cpu.put(MACHINE, machine[0]);
        cpu.put(MACHINE_ALL, machine[1]);
        return new Sample(System.nanoTime(), rss, cpu);
    }

    /** VmRSS of a component in kB (its process and, for nginx, its workers); 0 when it is not running. */
    private long rssKb(String component) {
        return processes(component).map(Sampler::vmRss).sum();
    }

    /**
     * The pids of a component: the one bin/seckill recorded, and for the edge also nginx's workers. On the cluster
     * (bin/seckill bench --cluster) a component is every node of its kind ("service" is service-1 and service-2), so
     * its RSS and CPU are the kind's sum.
     */
    private LongStream processes(String component) {
        return nodesOf(component).flatMapToLong(node -> {
            long pid = stack.pid(node);
            Optional<ProcessHandle> ph = pid > 0 ? ProcessHandle.of(pid) : Optional.empty();
            if (ph.isEmpty()) {
                return LongStream.empty();
            }
            return component.equals("edge")
                    ? LongStream.concat(LongStream.of(pid), ph.get().children().mapToLong(ProcessHandle::pid))
                    : LongStream.of(pid);
        });
    }

    /** The component's own pid file's name when there is one, else its numbered nodes' (redis-1 ... redis-6). */
    private Stream<String> nodesOf(String component) {
        if (stack.pid(component) > 0) {
            return Stream.of(component);
        }
        return IntStream.rangeClosed(1, MAX_NODES_OF_A_KIND).mapToObj(i -> component + "-" + i)
                .filter(n -> stack.pid(n) > 0);
    }

    /** utime + stime of a process in clock ticks (fields 14 and 15 of /proc/PID/stat); 0 when it has exited. */
    static long cpuTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // Fields after the command name, which is in parentheses and may hold spaces; field 3 is the first.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * Ticks of all CPUs together from the "cpu" line of /proc/stat: busy (user, nice, system, irq, softirq, steal)
     * and all (busy plus idle and iowait); zeros when unreadable.
     */
    static long[] machineTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6])
                    + Long.parseLong(f[7]) + Long.parseLong(f[8]);
            return new long[] {busy, busy + Long.parseLong(f[4]) + Long.parseLong(f[5])};
        } catch (IOException | RuntimeException e) {
            return new long[] {0, 0};
        }
    }

    /** The "cpuN" lines of /proc/stat (every CPU the machine's ticks are counted over), else the JVM's count. */
    private static int machineCores() {
        try {
            long n = Files.readAllLines(Path.of("/proc/stat")).stream().filter(l -> l.matches("cpu[0-9]+ .*")).count();
            return n > 0 ? (int) n : Runtime.getRuntime().availableProcessors();
        } catch (IOException e) {
            return Runtime.getRuntime().availableProcessors();
        }
    }

    static long vmRss(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // the process has just exited
        }
        return 0;
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        watcher.interrupt();
        try {
            thread.join(5000);
            watcher.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
