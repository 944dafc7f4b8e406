package dev.seckill.bench.measure;

import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A window of {@code bin/seckill profile} (bin/lib/profile.sh) around a measurement: the JDK's Flight Recorder in
 * each JVM, perf on the edge, Redis's commandstats and Kafka's request counts, into one directory. The tools record;
 * the bench only says when.
 */
public final class ProfileWindow implements AutoCloseable {

    private final Stack stack;
    private final Path dir;

    private ProfileWindow(Stack stack, Path dir) {
        this.stack = stack;
        this.dir = dir;
    }

    /** Starts recording the stack the bench runs against into {@code dir}. */
    public static ProfileWindow start(Stack stack, Path dir) throws IOException, InterruptedException {
        ProfileWindow w = new ProfileWindow(stack, dir);
        w.command("start");
        return w;
    }

    /** Stops every recording and writes the profile's files (summary.txt first). */
    @Override
    public void close() throws IOException, InterruptedException {
        command("stop");
    }

    private void command(String action) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(stack.home().resolve("bin/seckill").toString(), "profile", action,
                dir.toString()).inheritIO().start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException("bin/seckill profile " + action + " did not end in 5 minutes");
        }
        if (p.exitValue() != 0) {
            throw new IOException("bin/seckill profile " + action + " failed (exit " + p.exitValue() + ")");
        }
    }
}
