package dev.seckill.bench;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The service's JVM seen from the bench: a JFR recording and thread dumps, asked of it as jcmd asks (JFR.start,
 * JFR.dump, Thread.dump_to_file) over one attach connection kept for the whole run: no agent, nothing to download,
 * no flag on the service, and no jcmd process per thread dump (each would cost the shared cores half a second of
 * CPU). The JDK's attach implementation runs diagnostic commands with executeJCmd, which its package exports only
 * on request: the bench runs with --add-exports jdk.attach/sun.tools.attach=ALL-UNNAMED (bin/lib/bench.sh). (The
 * local JMX agent's DiagnosticCommand bean would need no flag, but its RMI filter rejects the String[] argument.)
 * JFR uses its "profile" settings.
 */
final class ServiceRecording implements AutoCloseable {

    static final String NAME = "seckill-bench";

    private final VirtualMachine vm;
    private final Method executeJCmd;
    private final long startedNanos;
    private boolean stopped;
    private boolean detached;

    private ServiceRecording(VirtualMachine vm, Method executeJCmd) {
        this.vm = vm;
        this.executeJCmd = executeJCmd;
        this.startedNanos = System.nanoTime();
    }

    /** Attaches to the JVM {@code pid} (same user) and starts recording; fails when it cannot attach. */
    static ServiceRecording start(long pid) throws IOException {
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(Long.toString(pid));
        } catch (AttachNotSupportedException e) {
            throw new IOException("cannot attach to pid " + pid + ": " + e.getMessage(), e);
        }
        try {
            ServiceRecording r = new ServiceRecording(vm, vm.getClass().getMethod("executeJCmd", String.class));
            r.command("JFR.start name=" + NAME + " settings=profile");
            return r;
        } catch (NoSuchMethodException | IOException | RuntimeException e) {
            vm.detach();
            throw new IOException("cannot start JFR in pid " + pid + ": " + e, e);
        }
    }

    /** Writes a thread dump, virtual threads included, as JSON. */
    void threadDump(Path file) throws IOException {
        command("Thread.dump_to_file -format=json -overwrite " + file.toAbsolutePath());
    }

    /** Dumps the recording into {@code file}, stops it, and says how long it ran (seconds). */
    double stop(Path file) throws IOException {
        double seconds = (System.nanoTime() - startedNanos) / 1e9;
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.deleteIfExists(file);
        command("JFR.dump name=" + NAME + " filename=" + file.toAbsolutePath());
        command("JFR.stop name=" + NAME);
        stopped = true;
        if (!Files.isRegularFile(file)) {
            throw new IOException("JFR.dump reported no error but wrote no " + file);
        }
        return seconds;
    }

    private String command(String line) throws IOException {
        String out;
        try (InputStream in = (InputStream) executeJCmd.invoke(vm, line)) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IllegalAccessException e) {
            throw new IOException("the bench needs --add-exports jdk.attach/sun.tools.attach=ALL-UNNAMED", e);
        } catch (InvocationTargetException e) {
            throw new IOException(line + " failed: " + e.getCause(), e.getCause());
        }
        // The command's own failure comes back as its output, not as an exception.
        if (out.contains("Exception") || out.startsWith("Error")) {
            throw new IOException(line + " failed: " + out.strip());
        }
        return out;
    }

    /** Detaches; a recording not stopped yet (the bench failed on the way) is stopped first, unsaved. */
    @Override
    public void close() throws IOException {
        if (detached) {
            return;
        }
        try {
            if (!stopped) {
                command("JFR.stop name=" + NAME);
            }
        } finally {
            detached = true;
            vm.detach();
        }
    }
}
