package dev.seckill.bench;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one bench run found, and its verdict: the targets of issue 7 as measured value against target, and the
 * invariant checks. Written as report.json, report.md and SVG charts into the out directory.
 */
record Report(Machine machine, Map<String, Object> scenario, boolean ok, List<Goal> goals, List<Check> invariants,
              FlashSaleNumbers flashSale, List<Map<String, Object>> timeline, List<FloodLevels.Level> floods,
              List<Memory> memory, List<Cpu> cpu, List<String> charts,
              @JsonIgnore Ceilings.Result ceilingResult, Payments payments, ServiceProfile profile) {

    /**
     * The payment behaviour of issue 14, when the run had one: the waves of the flash sale (units returned by lapsed
     * orders and sold again), and the running sale measured while many orders expire at once (null when not run).
     */
    record Payments(PaymentRun.Result sale, ExpiryImpact.Result expiry) {
    }

    /** One target: measured against wanted, with the comparison spelled out. */
    record Goal(String name, String measured, String target, boolean met) {
    }

    /** The invariant check of one sale, read from MySQL and Redis directly. */
    record Check(String sale, long saleId, boolean ok, long stockTotal, long accepted, long dbOrders, long dbStock,
                 Long redisRemaining, long redisBuyers, long oversold, long duplicates, long lost,
                 List<String> violations) {

        /** Oversold counts the live orders (an expired order gave its unit back, and it may have been sold again). */
        static Check of(String sale, Invariants.Report r) {
            return new Check(sale, r.saleId(), r.ok(), r.stockTotal(), r.accepted(), r.dbOrders(), r.dbStock(),
                    r.redisRemaining(), r.redisBuyers(), Math.max(0, r.liveOrders() - r.stockTotal()),
                    r.dbOrders() - r.distinctBuyers(), r.lost(), r.violations());
        }
    }

    /** Resident memory of one component: the largest and the mean sample over the run, the largest during the sale. */
    record Memory(String component, double maxMb, double meanMb, double maxMbDuringSale) {
    }

    /**
     * Where the machine's CPU went during a window, in cores (2 = both cores busy): each component, the bench itself
     * (its client, wrk, redis-benchmark, WriterBenchmark), every other process of the machine, and idle.
     */
    record Cpu(String window, double seconds, Map<String, Double> cores) {
    }

    static final String CPU_SVG = "cpu.svg";
    static final String THROUGHPUT_SVG = "throughput.svg";
    static final String LATENCY_SVG = "latency.svg";
    static final String MEMORY_SVG = "memory.svg";

    /** Writes report.json, report.md and the charts; returns the paths written. */
    List<Path> write(Path out, Timeline t, List<Sampler.Sample> samples, Map<String, Long> marks) throws IOException {
        Files.createDirectories(out);
        List<Path> written = new ArrayList<>();
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        written.add(Files.writeString(out.resolve("report.json"), json.writeValueAsString(this)));
        Charts charts = new Charts(t, samples, marks, flashSale);
        written.add(Files.writeString(out.resolve(THROUGHPUT_SVG), charts.throughput()));
        written.add(Files.writeString(out.resolve(LATENCY_SVG), charts.latency()));
        written.add(Files.writeString(out.resolve(MEMORY_SVG), charts.memory()));
        written.add(Files.writeString(out.resolve(CPU_SVG), charts.cpu()));
        written.add(Files.writeString(out.resolve("report.md"), new Markdown(this).render()));
        return written;
    }

    static List<Map<String, Object>> timeline(Timeline t) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Timeline.Bucket b : t.buckets) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("at", b.at());
            row.put("answersPerSecond", t.rate(b, null));
            row.put("outcomes", b.outcomes());
            row.put("latencyMs", b.latency());
            rows.add(row);
        }
        return rows;
    }

    static List<Memory> memory(List<Sampler.Sample> samples, long saleStart, long saleEnd) {
        List<Memory> out = new ArrayList<>();
        for (String c : Sampler.COMPONENTS) {
            long max = 0;
            long maxSale = 0;
            double sum = 0;
            int n = 0;
            for (Sampler.Sample s : samples) {
                long kb = s.rssKb().getOrDefault(c, 0L);
                if (kb == 0) {
                    continue;
                }
                max = Math.max(max, kb);
                sum += kb;
                n++;
                if (s.nanos() >= saleStart && s.nanos() <= saleEnd) {
                    maxSale = Math.max(maxSale, kb);
                }
            }
            out.add(new Memory(c, round(max / 1024.0), round(n == 0 ? 0 : sum / n / 1024.0), round(maxSale / 1024.0)));
        }
        return out;
    }

    /**
     * CPU use over a window: from the last sample at or before {@code from} to the first one at or after {@code to}
     * (the nearest ones inside when the samples do not reach that far), so the window covers the whole phase however
     * sparse the samples were; {@code seconds} is the span actually measured.
     */
    static Cpu cpu(String window, List<Sampler.Sample> samples, long from, long to) {
        Sampler.Sample a = null;
        Sampler.Sample b = null;
        for (Sampler.Sample s : samples) {
            if (a == null || s.nanos() <= from) {
                a = s;
            }
            if (b == null && s.nanos() >= to) {
                b = s;
            }
        }
        if (b == null && !samples.isEmpty()) {
            b = samples.get(samples.size() - 1);
        }
        Map<String, Double> cores = new LinkedHashMap<>();
        if (a == null || b == null || b.nanos() <= a.nanos()) {
            return new Cpu(window, 0, cores);
        }
        return new Cpu(window, round((b.nanos() - a.nanos()) / 1e9), cores(a, b));
    }

    /**
     * Cores used by each part between two samples. The ticks are measured against the machine's own tick count over
     * the window (every CPU's busy and idle ticks), so the parts, "others" and "idle" add up to the machine's cores
     * ({@link Sampler#MACHINE_CORES}) whatever the window's length; the wall clock is the fallback when /proc/stat
     * gave nothing.
     */
    static Map<String, Double> cores(Sampler.Sample a, Sampler.Sample b) {
        int machineCores = Sampler.MACHINE_CORES;
        long all = b.cpuTicks().getOrDefault(Sampler.MACHINE_ALL, 0L) - a.cpuTicks().getOrDefault(Sampler.MACHINE_ALL, 0L);
        double ticksPerCore = all > 0 ? (double) all / machineCores : (b.nanos() - a.nanos()) / 1e9 * 100;
        Map<String, Double> cores = new LinkedHashMap<>();
        double accounted = 0;
        for (String k : a.cpuTicks().keySet()) {
            if (k.equals(Sampler.MACHINE) || k.equals(Sampler.MACHINE_ALL)) {
                continue;
            }
            double c = Math.max(0, b.cpuTicks().getOrDefault(k, 0L) - a.cpuTicks().get(k)) / ticksPerCore;
            cores.put(k, round(c));
            accounted += c;
        }
        double busy = Math.max(0, b.cpuTicks().getOrDefault(Sampler.MACHINE, 0L)
                - a.cpuTicks().getOrDefault(Sampler.MACHINE, 0L)) / ticksPerCore;
        cores.put("others", round(Math.max(0, busy - accounted)));
        // A process's ticks and the machine's are read a moment apart: the busy share is the larger of the two.
        cores.put("idle", round(Math.max(0, machineCores - Math.max(busy, accounted))));
        return cores;
    }

    static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
