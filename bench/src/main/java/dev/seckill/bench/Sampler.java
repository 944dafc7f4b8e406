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
 * Samples while a bench runs, every {@code every}: the resident memory and CPU time of each component of the stack
 * (/proc/PID/status and /proc/PID/stat for the pids bin/seckill recorded; the edge is nginx's master plus its
 * workers), of the bench itself and of the whole machine, and, while a sale
 * is watched (then every 100 ms), its stats and the edge's short-circuit counter. One daemon thread, a few reads per
 * sample.
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

    /**
     * One sample; {@code stats} only while a sale is watched. Times are System.nanoTime(). {@code cpuTicks}: CPU time
     * used so far (user + system, in clock ticks of 1/100 s) by each component, by {@link #BENCH}, and by every
     * process of the machine together ({@link #MACHINE}, from /proc/stat), so a window's share of the 2 cores that
     * went elsewhere can be told.
     */
    record Sample(long nanos, Map<String, Long> rssKb, Map<String, Long> cpuTicks, long saleId, Admin.SaleStats stats,
                  double shortCircuits) {
    }

    private final Stack stack;
    private final Admin admin;
    private final Duration every;
    private final List<Sample> samples = new ArrayList<>();
    private final Map<String, Long> marks = new LinkedHashMap<>();
    private final Thread thread;
    private volatile long watched = -1;
    private volatile boolean running = true;

    Sampler(Stack stack, Admin admin, Duration every) {
        this.stack = stack;
        this.admin = admin;
        this.every = every;
        this.thread = Thread.ofPlatform().daemon().name("bench-sampler").start(this::loop);
    }

    /** Adds the stats of this sale (and the edge counter) to the samples from now on; -1 stops. */
    void watch(long saleId) {
        watched = saleId;
    }

    /** Marks the start of a phase of the bench (for the memory chart). */
    void mark(String phase) {
        synchronized (marks) {
            marks.put(phase, System.nanoTime());
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

    private void loop() {
        while (running) {
            long t = System.nanoTime();
            Map<String, Long> rss = new LinkedHashMap<>();
            Map<String, Long> cpu = new LinkedHashMap<>();
            for (String c : COMPONENTS) {
                rss.put(c, rssKb(c));
                cpu.put(c, processes(c).map(Sampler::cpuTicks).sum());
            }
            ProcessHandle self = ProcessHandle.current();
            cpu.put(BENCH, cpuTicks(self.pid()) + self.descendants().mapToLong(p -> cpuTicks(p.pid())).sum());
            cpu.put(MACHINE, machineBusyTicks());
            long sale = watched;
            Admin.SaleStats stats = null;
            double shortCircuits = -1;
            if (sale > 0) {
                try {
                    stats = admin.stats(sale);
                    shortCircuits = admin.edgeMetrics().getOrDefault(SHORT_CIRCUITS, 0.0);
                } catch (IOException e) {
                    // a missed sample (the service is busy or restarting); the next one comes soon
                } catch (InterruptedException e) {
                    return;
                }
            }
            // Stamped when the reads are done: by then the stats were true.
            synchronized (samples) {
                samples.add(new Sample(System.nanoTime(), rss, cpu, sale, stats, shortCircuits));
            }
            // A watched sale is polled faster, for the drain time.
            long period = sale > 0 ? Math.min(every.toNanos(), WATCHING.toNanos()) : every.toNanos();
            long sleep = period - (System.nanoTime() - t);
            if (sleep > 0) {
                try {
                    Thread.sleep(Duration.ofNanos(sleep));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
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

    /** Busy ticks of all CPUs together: user, nice, system, irq, softirq and steal of the "cpu" line of /proc/stat. */
    static long machineBusyTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            return Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6])
                    + Long.parseLong(f[7]) + Long.parseLong(f[8]);
        } catch (IOException | RuntimeException e) {
            return 0;
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
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
