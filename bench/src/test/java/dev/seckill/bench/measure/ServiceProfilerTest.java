package dev.seckill.bench.measure;

import dev.seckill.bench.report.Section;
import dev.seckill.bench.report.Section;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServiceProfilerTest {

    @Test
    void collapsedStacksGiveTheTotalAndTheTopFramesBySelfValue() {
        ServiceProfiler.Graph g = ServiceProfiler.top("cpu", "profile-cpu.html", "samples",
                List.of("main_[j];a.B.work_[j] 6", "main_[j];a.B.work_[i] 2", "main_[j];epoll_wait_[k] 2",
                        "main_[j] 1", ""), 1);

        assertEquals(11, g.total());
        assertEquals(List.of("a.B.work", "epoll_wait", "main"),
                g.top().stream().map(ServiceProfiler.Frame::name).toList());
        assertEquals(8, g.top().get(0).value());
        assertEquals(8 / 11.0, g.top().get(0).share(), 1e-9);
        assertEquals(1.0, ServiceProfiler.top("alloc", "x", "MB", List.of("f;byte[]_[i] 1048576"), 1 / 1048576.0)
                .total());
    }

    @Test
    void aProfileThatCouldNotAttachSaysWhy(@TempDir Path dir) {
        long noJvm = ProcessHandle.current().pid() + 1_000_000;
        ServiceProfiler p = ServiceProfiler.start(noJvm, dir, dir.resolve("out"));
        String md = p.stop().markdown();
        p.close();
        assertTrue(md.contains("Not profiled: start,") && md.contains("failed"), md);
    }

    /** A child JVM stands in for the service: profiled while it burns CPU and allocates, then stopped. */
    @Test
    void aBusyJvmIsProfiledAndLeftWithProfilingStopped(@TempDir Path dir) throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Spin.class.getName()).redirectErrorStream(true).start();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream()))) {
            assertNotNull(lines.readLine(), "the child JVM did not start");
            Path out = dir.resolve("report");
            Section s;
            try (ServiceProfiler p = ServiceProfiler.start(child.pid(), dir, out)) {
                for (int i = 0; i < 20; i++) {
                    assertNotNull(lines.readLine(), "the child JVM stopped");
                }
                s = p.stop();
            }
            ServiceProfiler.Profile data = Section.JSON.readValue(json(s), ServiceProfiler.Profile.class);
            assertNull(data.failure(), s.markdown());
            assertEquals(List.of("cpu", "wall", "alloc"),
                    data.graphs().stream().map(ServiceProfiler.Graph::kind).toList());
            for (ServiceProfiler.Graph g : data.graphs()) {
                assertTrue(g.total() > 0, g.kind() + " recorded nothing: " + s.markdown());
                assertTrue(Files.size(out.resolve(g.file())) > 5_000, g.file());
            }
            assertTrue(data.graphs().get(0).top().stream().anyMatch(f -> f.name().contains("Spin.main")), s.markdown());
            assertTrue(s.markdown().contains("[CPU](profile-cpu.html)"), s.markdown());
            assertTrue(List.of("perf_events", "ctimer", "itimer").contains(data.engine()), data.engine());
            // A bench that fails on the way only closes its profiler: that stops it, so the next start succeeds.
            ServiceProfiler.start(child.pid(), dir, dir.resolve("failed")).close();
            try (ServiceProfiler again = ServiceProfiler.start(child.pid(), dir, dir.resolve("again"))) {
                assertTrue(again.stop().markdown().contains("[CPU](profile-cpu.html)"), "profiling was left running");
            }
        } finally {
            child.destroyForcibly().waitFor();
        }
    }

    private static String json(Section s) {
        assertEquals("profile", s.key());
        return s.data().toString();
    }

    /** Prints a line per 25 ms of its own CPU time, allocating as it goes. */
    public static final class Spin {
        public static void main(String[] args) {
            List<long[]> garbage = new ArrayList<>();
            long next = 0;
            long x = 0;
            while (true) {
                for (int i = 0; i < 100_000; i++) {
                    x += i * 31L ^ x;
                }
                garbage.add(new long[256]);
                if (garbage.size() > 1000) {
                    garbage.clear();
                }
                long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
                if (cpu >= next) {
                    next = cpu + 25_000_000;
                    System.out.println(x);
                }
            }
        }
    }
}
