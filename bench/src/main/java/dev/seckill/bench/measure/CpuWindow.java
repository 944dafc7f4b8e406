package dev.seckill.bench.measure;

import dev.seckill.bench.report.Report;
import dev.seckill.bench.report.Section;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.seckill.bench.report.Section.round;
import static dev.seckill.bench.report.Section.f;

/** The CPU used over one stretch of the run, between a sample taken as it opens and one as it closes. */
public record CpuWindow(Sampler sampler, long from) {

    /** A window's cores: each component, the bench (its client, wrk, ...), "others" and "idle", adding up. */
    public record Cpu(String window, double seconds, Map<String, Double> cores) {
    }

    /** Per component (and bench, others): cores, and CPU microseconds per unit of work; and the machine's in all. */
    public record PerUnit(String window, long units, double seconds, Map<String, Double> cores,
                   Map<String, Double> microsPerUnit, double machineMicrosPerUnit) {
    }

    public static CpuWindow open(Sampler sampler) {
        sampler.sampleNow();
        return new CpuWindow(sampler, System.nanoTime());
    }

    public PerUnit close(String name, long units) {
        long to = System.nanoTime();
        sampler.sampleNow();
        Cpu cpu = cpu(name, sampler.samples(), from, to);
        Map<String, Double> per = new LinkedHashMap<>(cpu.cores());
        per.remove("idle");
        per.replaceAll((k, cores) -> units > 0 ? cores * cpu.seconds() * 1e6 / units : 0);
        double machine = per.values().stream().mapToDouble(Double::doubleValue).sum();
        per.replaceAll((k, micros) -> round(micros));
        return new PerUnit(name, units, cpu.seconds(), cpu.cores(), per, round(machine));
    }

    /** From the last sample at or before {@code from} to the first at or after {@code to}, or the nearest inside. */
    public static Cpu cpu(String window, List<Sampler.Sample> samples, long from, long to) {
        if (samples.isEmpty()) {
            return new Cpu(window, 0, Map.of());
        }
        Sampler.Sample a = samples.stream().filter(s -> s.nanos() <= from).reduce((x, y) -> y)
                .orElse(samples.getFirst());
        Sampler.Sample b = samples.stream().filter(s -> s.nanos() >= to).findFirst().orElse(samples.getLast());
        return b.nanos() <= a.nanos() ? new Cpu(window, 0, Map.of())
                : new Cpu(window, round((b.nanos() - a.nanos()) / 1e9), cores(a, b));
    }

    /** Each part's cores between two samples: its share of all the machine's ticks (busy and idle) times its cores. */
    public static Map<String, Double> cores(Sampler.Sample a, Sampler.Sample b) {
        long all = ticks(a, b, Sampler.MACHINE_ALL);
        double perCore = all > 0 ? (double) all / Sampler.MACHINE_CORES : (b.nanos() - a.nanos()) / 1e9 * 100;
        Map<String, Double> cores = new LinkedHashMap<>();
        double accounted = 0;
        for (String k : a.cpuTicks().keySet()) {
            if (!k.equals(Sampler.MACHINE) && !k.equals(Sampler.MACHINE_ALL)) {
                double c = Math.max(0, ticks(a, b, k)) / perCore;
                cores.put(k, round(c));
                accounted += c;
            }
        }
        double busy = Math.max(0, ticks(a, b, Sampler.MACHINE)) / perCore;
        cores.put("others", round(Math.max(0, busy - accounted)));
        // A process's ticks and the machine's are read a moment apart: the busy share is the larger of the two.
        cores.put("idle", round(Math.max(0, Sampler.MACHINE_CORES - Math.max(busy, accounted))));
        return cores;
    }

    public static Section section(List<Cpu> cpu) {
        Section s = new Section("cpu", "Where the CPU went (cores, from /proc; the machine is shared, \"others\" is "
                + "everything outside this bench)").data(cpu);
        List<String> keys = cpu.isEmpty() ? List.of() : List.copyOf(cpu.getFirst().cores().keySet());
        s.table(Stream.concat(Stream.of("window", "seconds"), keys.stream()).toArray(String[]::new));
        cpu.forEach(c -> s.row(Stream.concat(Stream.of(c.window(), f("%.1f", c.seconds())),
                keys.stream().map(k -> f("%.2f", c.cores().getOrDefault(k, 0.0)))).toArray()));
        return s.text("![CPU over the bench](%s)", Report.CPU_PNG);
    }

    private static long ticks(Sampler.Sample a, Sampler.Sample b, String key) {
        return b.cpuTicks().getOrDefault(key, 0L) - a.cpuTicks().getOrDefault(key, 0L);
    }
}
