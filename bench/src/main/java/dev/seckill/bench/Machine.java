package dev.seckill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/** The machine a bench ran on, for the report: what it is and how busy it was. */
record Machine(String date, String os, String kernel, String cpu, int cores, long memoryMb, String java,
               String loadAverageBefore, String loadAverageAfter) {

    static Machine now() {
        return new Machine(Instant.now().toString(), osName(), read("/proc/sys/kernel/osrelease").trim(), cpuModel(),
                Runtime.getRuntime().availableProcessors(), totalMemoryMb(), System.getProperty("java.vm.name") + " "
                + Runtime.version(), loadAverage(), null);
    }

    Machine finished() {
        return new Machine(date, os, kernel, cpu, cores, memoryMb, java, loadAverageBefore, loadAverage());
    }

    /** The 1-, 5- and 15-minute load averages. */
    static String loadAverage() {
        String[] f = read("/proc/loadavg").split(" ");
        return f.length >= 3 ? f[0] + " " + f[1] + " " + f[2] : "?";
    }

    private static String osName() {
        for (String line : lines("/etc/os-release")) {
            if (line.startsWith("PRETTY_NAME=")) {
                return line.substring(12).replace("\"", "");
            }
        }
        return System.getProperty("os.name");
    }

    private static String cpuModel() {
        for (String line : lines("/proc/cpuinfo")) {
            if (line.startsWith("model name")) {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return System.getProperty("os.arch");
    }

    private static long totalMemoryMb() {
        for (String line : lines("/proc/meminfo")) {
            if (line.startsWith("MemTotal:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
            }
        }
        return 0;
    }

    private static String read(String path) {
        try {
            return Files.readString(Path.of(path));
        } catch (IOException e) {
            return "?";
        }
    }

    private static List<String> lines(String path) {
        try {
            return Files.readAllLines(Path.of(path));
        } catch (IOException e) {
            return List.of();
        }
    }
}
