package dev.seckill.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CPU each component used over one stretch of the run, from the {@link Sampler}'s samples at its two ends:
 * opened with a sample taken just before, closed with one just after, so the window is whole samples.
 */
final class CpuWindow {

    /** Per component (and {@code bench}, {@code others}): CPU microseconds per unit of work, and in all. */
    record PerUnit(String window, long units, double seconds, Map<String, Double> cores,
                   Map<String, Double> microsPerUnit, double machineMicrosPerUnit) {
    }

    private final Sampler sampler;
    private final long from;

    private CpuWindow(Sampler sampler) {
        this.sampler = sampler;
        sampler.sampleNow();
        this.from = System.nanoTime();
    }

    static CpuWindow open(Sampler sampler) {
        return new CpuWindow(sampler);
    }

    long from() {
        return from;
    }

    /** Closes the window: the cores each component used, and per unit of the work done in it. */
    PerUnit close(String name, long units) {
        long to = System.nanoTime();
        sampler.sampleNow();
        Report.Cpu cpu = Report.cpu(name, sampler.samples(), from, to);
        Map<String, Double> per = new LinkedHashMap<>();
        double machine = 0;
        for (Map.Entry<String, Double> e : cpu.cores().entrySet()) {
            if (e.getKey().equals("idle")) {
                continue;
            }
            double micros = units > 0 ? e.getValue() * cpu.seconds() * 1e6 / units : 0;
            per.put(e.getKey(), Report.round(micros));
            machine += micros;
        }
        return new PerUnit(name, units, cpu.seconds(), cpu.cores(), per, Report.round(machine));
    }
}
