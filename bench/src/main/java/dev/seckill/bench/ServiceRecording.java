package dev.seckill.bench;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The service's JVM seen from the bench: a JFR recording and thread dumps, asked of it through its diagnostic
 * commands (what jcmd runs: JFR.start, JFR.dump, Thread.dump_to_file) over the JDK's attach API and the local JMX
 * agent it starts. No agent, nothing to download, no flag on the service, and one connection for the whole run: a
 * jcmd process per thread dump would cost the shared cores half a second of CPU each. JFR uses its "profile" settings.
 */
final class ServiceRecording implements AutoCloseable {

    static final String NAME = "seckill-bench";
    private static final String[] STRINGS = {String[].class.getName()};

    private final VirtualMachine vm;
    private final JMXConnector jmx;
    private final MBeanServerConnection server;
    private final ObjectName dcmd;
    private final long startedNanos;

    private ServiceRecording(VirtualMachine vm, JMXConnector jmx) throws IOException, JMException {
        this.vm = vm;
        this.jmx = jmx;
        this.server = jmx.getMBeanServerConnection();
        this.dcmd = new ObjectName("com.sun.management:type=DiagnosticCommand");
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
            JMXConnector jmx = JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent()));
            ServiceRecording r = new ServiceRecording(vm, jmx);
            r.command("jfrStart", "name=" + NAME, "settings=profile");
            return r;
        } catch (IOException | JMException | RuntimeException e) {
            vm.detach();
            throw new IOException("cannot start JFR in pid " + pid + ": " + e.getMessage(), e);
        }
    }

    /** Writes a thread dump, virtual threads included, as JSON (Thread.dump_to_file -format=json). */
    void threadDump(Path file) throws IOException {
        command("threadDumpToFile", "-format=json", "-overwrite", file.toAbsolutePath().toString());
    }

    /** Dumps the recording into {@code file}, stops it, and says how long it ran (seconds). */
    double stop(Path file) throws IOException {
        double seconds = (System.nanoTime() - startedNanos) / 1e9;
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.deleteIfExists(file);
        command("jfrDump", "name=" + NAME, "filename=" + file.toAbsolutePath());
        command("jfrStop", "name=" + NAME);
        if (!Files.isRegularFile(file)) {
            throw new IOException("JFR.dump reported no error but wrote no " + file);
        }
        return seconds;
    }

    private void command(String operation, String... args) throws IOException {
        try {
            server.invoke(dcmd, operation, new Object[] {args}, STRINGS);
        } catch (JMException e) {
            throw new IOException(operation + " " + List.of(args) + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            jmx.close();
        } finally {
            vm.detach();
        }
    }
}
