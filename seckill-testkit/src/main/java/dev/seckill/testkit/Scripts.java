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

    /** The exit code of an outcome whose command did not end by itself: it timed out, failed to start or was interrupted. */
    static final int NOT_ENDED = -1;

    /**
     * Runs {@code script} (relative to {@code home}) with {@code env} plus {@code extraEnv} (which wins; a null value
     * removes the variable, e.g. JAVA_HOME to test the JDK search) and returns how it ended; fails the test when it
     * did not end by itself.
     */
    static Stack.Outcome run(Path home, Map<String, String> env, Map<String, String> extraEnv, Duration timeout,
                             String script, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(home.resolve(script).toString());
        cmd.addAll(List.of(args));
        Stack.Outcome o = attempt(cmd, env, extraEnv, timeout);
        if (o.exit() == NOT_ENDED) {
            throw new AssertionError(script + " " + String.join(" ", args) + ": " + o.output());
        }
        return o;
    }

    /**
     * Runs {@code command} with {@code env} plus {@code extraEnv} and returns how it ended, never failing: exit
     * {@link #NOT_ENDED} and what happened when it took longer than {@code timeout} (then it is killed), could not
     * start or the wait was interrupted.
     */
    static Stack.Outcome attempt(List<String> command, Map<String, String> env, Map<String, String> extraEnv,
                                 Duration timeout) {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        extraEnv.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        Path out = null;
        try {
            out = Files.createTempFile("seckill-cmd", ".log");
            Process p = pb.redirectOutput(out.toFile()).start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return new Stack.Outcome(NOT_ENDED, "took longer than " + timeout + ": " + Files.readString(out));
            }
            return new Stack.Outcome(p.exitValue(), Files.readString(out));
        } catch (IOException e) {
            return new Stack.Outcome(NOT_ENDED, "failed to run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Stack.Outcome(NOT_ENDED, "interrupted");
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException e) {
                    // A temporary file left behind: nothing depends on it.
                }
            }
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
