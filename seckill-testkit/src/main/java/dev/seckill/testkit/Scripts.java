package dev.seckill.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a script of the repository with a stack's environment, bounded in time. */
final class Scripts {

    private Scripts() {
    }

    /**
     * Runs {@code script} (relative to {@code home}) with {@code env} plus {@code extraEnv} (which wins; a null value
     * removes the variable, e.g. JAVA_HOME to test the JDK search) and returns how it ended.
     */
    static Stack.Outcome run(Path home, Map<String, String> env, Map<String, String> extraEnv, Duration timeout,
                             String script, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(home.resolve(script).toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        extraEnv.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        try {
            Path out = Files.createTempFile("seckill-cmd", ".log");
            Process p = pb.redirectOutput(out.toFile()).start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(script + " " + String.join(" ", args) + " took longer than " + timeout);
            }
            String text = Files.readString(out);
            Files.deleteIfExists(out);
            return new Stack.Outcome(p.exitValue(), text);
        } catch (IOException e) {
            throw new AssertionError("failed to run " + script + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** {@link #run}, failing the test when the script exits non-zero; returns its output. */
    static String check(Path home, Map<String, String> env, Map<String, String> extraEnv, Duration timeout,
                        String script, String... args) {
        Stack.Outcome o = run(home, env, extraEnv, timeout, script, args);
        if (o.exit() != 0) {
            throw new AssertionError(script + " " + String.join(" ", args) + " failed: " + o.output());
        }
        return o.output();
    }
}
