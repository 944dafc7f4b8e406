package dev.seckill.chaos;

import dev.seckill.chaos.fault.FaultKind;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;

/** One run: how long the workload lasts, the seed of its schedule, the kinds of fault, where the report goes. */
public record ChaosOptions(Duration length, long seed, Set<FaultKind> faults, Path out) {

    public ChaosOptions {
        faults = Set.copyOf(faults);
    }

    public double minutes() {
        return length.toMillis() / 60_000.0;
    }

    /** The kinds as --faults names them, in a fixed order. */
    public String faultList() {
        return java.util.Arrays.stream(FaultKind.values()).filter(faults::contains).map(FaultKind::label)
                .collect(Collectors.joining(","));
    }

    /** The command that replays this run's schedule. */
    public String replay() {
        double m = minutes();
        String length = m == Math.rint(m) ? Long.toString((long) m) : Double.toString(m);
        return "bin/seckill chaos --cluster --minutes " + length + " --seed " + seed + " --faults " + faultList();
    }
}
