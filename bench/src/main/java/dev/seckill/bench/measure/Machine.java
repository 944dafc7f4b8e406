package dev.seckill.bench.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The machine a bench ran on, for the report: what it is, and its load averages (1, 5, 15 min) before and after. */
public record Machine(String date, String os, String kernel, String cpu, int cores, long memoryMb, String java,
               String loadAverageBefore, String loadAverageAfter) {

    public static Machine now() {
        return new Machine(Instant.now().toString(), field("/etc/os-release", "^PRETTY_NAME=\"?([^\"\n]*)", "?"),
                System.getProperty("os.version"), field("/proc/cpuinfo", "^model name\\s*:(.*)", "?"),
                Runtime.getRuntime().availableProcessors(),
                Long.parseLong(field("/proc/meminfo", "^MemTotal:\\s*(\\d+)", "0")) / 1024,
                System.getProperty("java.vm.name") + " " + Runtime.version(), loadAverage(), null);
    }

    public Machine finished() {
        return new Machine(date, os, kernel, cpu, cores, memoryMb, java, loadAverageBefore, loadAverage());
    }

    private static String loadAverage() {
        return field("/proc/loadavg", "^(\\S+ \\S+ \\S+)", "?");
    }

    /** A file's text, or "" when it cannot be read (as when its process has just exited). */
    public static String read(String path) {
        try {
            return Files.readString(Path.of(path));
        } catch (IOException e) {
            return "";
        }
    }

    private static String field(String path, String regex, String otherwise) {
        Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(read(path));
        return m.find() ? m.group(1).trim() : otherwise;
    }
}
