package dev.seckill.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Where the stack's services are stuck, for the message of a test that found them not answering: each service JVM
 * bin/seckill started ({@code -Dseckill.run=...}) dumps its threads, virtual ones included ({@code jcmd PID
 * Thread.dump_to_file}), and the summary counts the threads by their innermost frame of the project's code. The full
 * dumps stay in the system temp directory, named in the summary.
 */
public final class ServiceThreads {

    private static final Duration JCMD_TIMEOUT = Duration.ofSeconds(30);
    private static final int TOP = 5;

    private ServiceThreads() {
    }

    /** One line per service JVM: its pid, its thread count, and the project frames most threads are in. */
    public static String summary() {
        List<String> lines = new ArrayList<>();
        ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains("helidon-app.jar") && c.contains("-Dseckill.run="))
                        .orElse(false))
                .forEach(p -> lines.add(summary(p.pid())));
        return lines.isEmpty() ? "no service JVM running" : String.join("; ", lines);
    }

    private static String summary(long pid) {
        try {
            Path dump = Files.createTempFile("service-" + pid + "-threads-", ".txt");
            Files.delete(dump);
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Thread.dump_to_file", "-format=text",
                    dump.toString()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(JCMD_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || !Files.exists(dump)) {
                p.destroyForcibly();
                return "service pid " + pid + ": no thread dump";
            }
            return "service pid " + pid + " (" + dump + "): " + frames(Files.readString(dump));
        } catch (IOException e) {
            return "service pid " + pid + ": no thread dump (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "service pid " + pid + ": interrupted";
        }
    }

    /** The threads of a dump counted by their innermost dev.seckill frame, most first. */
    static String frames(String dump) {
        Map<String, Integer> byFrame = new TreeMap<>();
        int threads = 0;
        for (String block : dump.split("\\R\\s*\\R")) {
            if (!block.strip().startsWith("#")) {
                continue;
            }
            threads++;
            block.lines().map(String::strip).filter(l -> l.contains("dev.seckill.")).findFirst()
                    .ifPresent(frame -> byFrame.merge(frame.startsWith("at ") ? frame.substring(3) : frame, 1,
                            Integer::sum));
        }
        String top = byFrame.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(TOP).map(e -> e.getValue() + " in " + e.getKey()).collect(Collectors.joining(", "));
        return threads + " threads" + (top.isEmpty() ? "" : ", the most in the project's code: " + top);
    }
}
