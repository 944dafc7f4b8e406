package dev.seckill.bench;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the service's time went, from a JFR recording of it under the bench's load ({@link ServiceRecording}).
 * CPU: JFR's execution samples (every 10-20 ms per running Java thread; native code and the GC's own threads are not
 * sampled), by part of the service ({@link StackCategory}) and by leaf method. Wall clock: the request threads in
 * the service's thread dumps ({@link WallClock}), by state and part and by the first non-JDK frame (who waited).
 * Allocation: JFR's allocation samples, weighted. GC: the pauses. Two icicle graphs: the CPU samples, and the request
 * threads' wall-clock samples.
 *
 * @param seconds      how long the recording ran
 * @param wallSamples  busy connection threads seen in {@code threadDumps} thread dumps ({@code wallIdle} more were
 *                     idle between requests)
 */
record ServiceProfile(String tool, double seconds, long cpuSamples, List<Share> cpu, List<Share> topFrames,
                      double allocatedMb, List<Share> allocation, long threadDumps, long wallSamples, long wallIdle, List<Share> wall,
                      List<Share> wallSites, Gc gc) {

    static final String JFR_FILE = "service.jfr";
    static final String CPU_FLAME = "profile-cpu.svg";
    static final String WALL_FLAME = "profile-wall.svg";
    static final String CPU_COLLAPSED = "profile-cpu.collapsed";
    private static final int TOP_FRAMES = 15;
    private static final int TOP_SITES = 12;

    /** A part, a method or a site with its weight (samples, MB or ms) and its share of the whole. */
    record Share(String name, double value, double share) {
    }

    /** Garbage collections during the recording and their pauses. */
    record Gc(long collections, double pauseMs, double longestPauseMs) {
    }

    /** No profile, and why (the recording could not be started or read): the report says so. */
    static ServiceProfile failed(String why) {
        return new ServiceProfile("not recorded: " + why, 0, 0, List.of(), List.of(), 0, List.of(), 0, 0, 0, List.of(),
                List.of(), new Gc(0, 0, 0));
    }

    /** Reads the recording and the wall clock's samples; writes the two icicle graphs and the collapsed CPU stacks. */
    static ServiceProfile read(Path jfr, double seconds, WallClock wall, Path out) throws IOException {
        Files.createDirectories(out);
        Map<String, Double> cpu = new HashMap<>();
        Map<String, Double> leaves = new HashMap<>();
        Map<String, Double> alloc = new HashMap<>();
        Map<String, Double> collapsed = new HashMap<>();
        FlameGraph cpuFlame = new FlameGraph("Service CPU samples (JFR), root at the top", "samples");
        long samples = 0;
        long collections = 0;
        double pauseMs = 0;
        double longestMs = 0;
        try (RecordingFile f = new RecordingFile(jfr)) {
            while (f.hasMoreEvents()) {
                RecordedEvent e = f.readEvent();
                String type = e.getEventType().getName();
                switch (type) {
                    case "jdk.ExecutionSample" -> {
                        Stack st = Stack.of(e.getStackTrace());
                        if (st == null) {
                            continue;
                        }
                        samples++;
                        cpu.merge(StackCategory.of(st.classes), 1.0, Double::sum);
                        leaves.merge(st.names.get(0), 1.0, Double::sum);
                        List<String> rootFirst = st.rootFirst();
                        cpuFlame.add(rootFirst, 1);
                        collapsed.merge(String.join(";", rootFirst), 1.0, Double::sum);
                    }
                    case "jdk.ObjectAllocationSample" -> {
                        Stack st = Stack.of(e.getStackTrace());
                        if (st != null) {
                            alloc.merge(StackCategory.of(st.classes), e.getLong("weight") / 1048576.0, Double::sum);
                        }
                    }
                    case "jdk.GarbageCollection" -> {
                        collections++;
                        pauseMs += e.getDuration("sumOfPauses").toNanos() / 1e6;
                        longestMs = Math.max(longestMs, e.getDuration("longestPause").toNanos() / 1e6);
                    }
                    default -> {
                        // the other events of the "profile" settings are not summarised here
                    }
                }
            }
        }
        Files.writeString(out.resolve(CPU_FLAME), cpuFlame.render());
        Files.writeString(out.resolve(WALL_FLAME), wall.renderFlame());
        StringBuilder folded = new StringBuilder();
        collapsed.forEach((k, v) -> folded.append(k).append(' ').append(Math.round(v)).append('\n'));
        Files.writeString(out.resolve(CPU_COLLAPSED), folded);
        double allocMb = alloc.values().stream().mapToDouble(Double::doubleValue).sum();
        return new ServiceProfile("JFR (settings=profile) and thread dumps (Thread.dump_to_file)", Report.round(seconds),
                samples, shares(cpu, samples, Integer.MAX_VALUE), shares(leaves, samples, TOP_FRAMES),
                Report.round(allocMb), shares(alloc, allocMb, Integer.MAX_VALUE),
                wall.dumps(), wall.samples(), wall.idle(), shares(wall.parts(), wall.samples(), Integer.MAX_VALUE),
                shares(wall.sites(), wall.samples(), TOP_SITES),
                new Gc(collections, Report.round(pauseMs), Report.round(longestMs)));
    }

    /** The largest {@code limit} entries, largest first, with their share of {@code total}. */
    static List<Share> shares(Map<String, Double> m, double total, int limit) {
        List<Share> out = new ArrayList<>();
        m.forEach((k, v) -> out.add(new Share(k, Report.round(v), total > 0 ? Math.round(v / total * 10_000) / 10_000.0 : 0)));
        out.sort(Comparator.comparingDouble(Share::value).reversed().thenComparing(Share::name));
        return Collections.unmodifiableList(out.subList(0, Math.min(limit, out.size())));
    }

    /** A recorded stack, leaf first: each Java frame's class, and its short name (a.b.Class.method). */
    private record Stack(List<String> classes, List<String> names) {

        static Stack of(RecordedStackTrace trace) {
            if (trace == null) {
                return null;
            }
            List<String> classes = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (RecordedFrame fr : trace.getFrames()) {
                if (fr.getMethod() == null || fr.getMethod().getType() == null) {
                    continue;
                }
                String c = fr.getMethod().getType().getName();
                classes.add(c);
                names.add(shortName(c) + "." + fr.getMethod().getName());
            }
            return classes.isEmpty() ? null : new Stack(classes, names);
        }

        List<String> rootFirst() {
            List<String> r = new ArrayList<>(names);
            Collections.reverse(r);
            return r;
        }
    }

    /** org.redisson.command.CommandAsyncService to o.r.c.CommandAsyncService: short enough for a graph's box. */
    static String shortName(String className) {
        String[] parts = className.split("\\.");
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < parts.length - 1; i++) {
            s.append(parts[i].isEmpty() ? "" : parts[i].substring(0, 1)).append('.');
        }
        return s.append(parts[parts.length - 1]).toString();
    }
}
