package dev.seckill.system;

import dev.seckill.testkit.Await;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/seckill's own answers: one clear line for each way a start can fail, a status that tells the truth, an `up`
 * that brings back what crashed and says what is not healthy, a `down` that stops everything.
 */
class StackScriptIT {

    private static final Duration SCRIPT = Duration.ofSeconds(120);
    private static final Duration STACK_OP = Duration.ofSeconds(180);
    private final Stack stack = Stack.get();

    private Map<String, String> isolated(Path dir) {
        Map<String, String> env = new HashMap<>();
        env.put("SECKILL_RUN_DIR", dir.toString());
        return env;
    }

    @Test
    void aTakenPortIsRefusedWithOneClearLine() throws Exception {
        Path dir = Files.createTempDirectory("seckill-port");
        try (ServerSocket squatter = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Map<String, String> env = isolated(dir);
            env.put("SECKILL_REDIS_PORT", Integer.toString(squatter.getLocalPort()));
            Stack.Outcome o = stack.run(env, SCRIPT, "bin/seckill", "up", "redis");
            assertNotEquals(0, o.exit(), o.output());
            assertEquals("seckill: port " + squatter.getLocalPort() + " for redis is already taken by another process"
                    + " (set SECKILL_REDIS_PORT to move it)", lastLine(o), o.output());
        }
    }

    @Test
    void chaosPlansTheSameScheduleForTheSameSeedAndRefusesABadOptionBeforeStartingAnything() throws Exception {
        Path dir = Files.createTempDirectory("seckill-chaos");
        Map<String, String> env = new HashMap<>(Map.of("SECKILL_CHAOS_CLUSTER_RUN_DIR", dir.toString()));
        List<String> plans = new java.util.ArrayList<>();
        for (String seed : List.of("7", "7", "8")) {
            Stack.Outcome o = stack.run(env, SCRIPT, "bin/seckill", "chaos", "--cluster", "--plan", "--seed", seed,
                    "--minutes", "3");
            assertEquals(0, o.exit(), o.output());
            String plan = o.output().lines().filter(l -> l.startsWith("  #")).reduce("", (a, b) -> a + b + "\n");
            assertTrue(o.output().contains("chaos: seed " + seed + ", workload 3.0 min"), o.output());
            assertTrue(plan.lines().count() >= 3, o.output());
            plans.add(plan);
        }
        assertEquals(plans.get(0), plans.get(1), "the same seed, the same schedule");
        assertNotEquals(plans.get(0), plans.get(2), "another seed, another schedule");

        Stack.Outcome bad = stack.run(env, SCRIPT, "bin/seckill", "chaos", "--cluster", "--faults", "kill,bogus");
        assertEquals(2, bad.exit(), bad.output());
        assertTrue(bad.output().contains("Invalid value for option '--faults' (KIND): expected one of [KILL, PAUSE, "
                + "PARTITION] (case-insensitive) but was 'bogus'"), bad.output());
        assertEquals("seckill: the chaos options above are not valid", lastLine(bad), bad.output());
        assertFalse(Files.exists(dir.resolve("pids")), "no node was started for a bad option");
    }

    @Test
    void noJdk21IsReportedWithOneClearLine() throws Exception {
        Path dir = Files.createTempDirectory("seckill-jdk");
        Path noJvms = Files.createTempDirectory("no-jvms");
        Map<String, String> env = isolated(dir);
        env.put("SECKILL_JVM_DIR", noJvms.toString());
        env.put("JAVA_HOME", null);
        Stack.Outcome o = stack.run(env, SCRIPT, "bin/seckill", "status");
        assertNotEquals(0, o.exit(), o.output());
        assertTrue(o.output().strip().startsWith("seckill: no JDK 21+ found"), o.output());
        assertEquals(1, o.output().strip().lines().count(), o.output());
    }

    @Test
    void aComponentThatFailsToStartNamesItsLog() throws Exception {
        Path dir = Files.createTempDirectory("seckill-broken");
        // A port number out of range makes redis-server exit at once.
        Map<String, String> env = isolated(dir);
        env.put("SECKILL_REDIS_PORT", "99999");
        Stack.Outcome o = stack.run(env, SCRIPT, "bin/seckill", "up", "redis");
        assertNotEquals(0, o.exit(), o.output());
        String last = lastLine(o);
        assertTrue(last.startsWith("seckill: redis failed to start") && last.contains(dir.resolve("redis").toString()),
                o.output());
    }

    /** A SIGKILL leaves a zombie for a moment, which `kill -0` called alive, so `up` left the service down. */
    @Test
    void upRightAfterTheServiceIsKilledBringsItBackHealthy() {
        long before = stack.pid("service");
        ProcessHandle.of(before).orElseThrow().destroyForcibly();
        // At once: no waiting for the process to be reaped.
        stack.seckill(STACK_OP, "up");
        long after = stack.pid("service");
        assertNotEquals(before, after, "the service was started again");
        assertTrue(running(after), "the new service runs");
        assertTrue(healthy(stack.seckill(SCRIPT, "status"), "service"), "the service is healthy once up returns");
    }

    @Test
    void upExitsNonZeroNamingTheComponentThatIsNotHealthy() throws Exception {
        Map<String, String> env = isolated(Files.createTempDirectory("seckill-unhealthy"));
        env.put("SECKILL_REDIS_PORT", Integer.toString(freePort()));
        stack.run(env, SCRIPT, "bin/seckill", "up", "redis");
        long redis = pidIn(env, "redis");
        try {
            // A stopped process is alive but answers nothing: up leaves it alone, and must say it is unhealthy.
            signal("STOP", redis);
            Stack.Outcome o = stack.run(env, SCRIPT, "bin/seckill", "up", "redis");
            assertNotEquals(0, o.exit(), o.output());
            assertEquals("seckill: not healthy after up: redis (bin/seckill status; bin/seckill logs redis)",
                    lastLine(o), o.output());
        } finally {
            signal("CONT", redis);
            stack.run(env, SCRIPT, "bin/seckill", "down");
        }
    }

    @Test
    void downStopsEveryComponentWhenOneIsAlreadyDead() throws Exception {
        Map<String, String> env = isolated(Files.createTempDirectory("seckill-down"));
        int redisPort = freePort();
        int edgePort = freePort();
        env.put("SECKILL_REDIS_PORT", Integer.toString(redisPort));
        env.put("SECKILL_EDGE_PORT", Integer.toString(edgePort));
        Stack.Outcome up = stack.run(env, SCRIPT, "bin/seckill", "up", "redis", "edge");
        assertEquals(0, up.exit(), up.output());
        long edge = pidIn(env, "edge");
        ProcessHandle.of(pidIn(env, "redis")).orElseThrow().destroyForcibly();

        Stack.Outcome down = stack.run(env, SCRIPT, "bin/seckill", "down");
        assertEquals(0, down.exit(), down.output());
        assertFalse(running(edge), "the edge was stopped");
        assertTrue(portFree(edgePort) && portFree(redisPort), "nothing listens on the stack's ports");
        try (var pids = Files.list(Path.of(env.get("SECKILL_RUN_DIR")).resolve("pids"))) {
            assertEquals(List.of(), pids.toList(), "no pid file left");
        }
    }

    /** A pid file may name a zombie or, once the pid is reused, another program: neither is the component. */
    @Test
    void aZombieOrAStrangerInAPidFileIsNeitherShownAliveNorStopped() throws Exception {
        Map<String, String> env = isolated(Files.createTempDirectory("seckill-strangers"));
        Path pids = Files.createDirectories(Path.of(env.get("SECKILL_RUN_DIR")).resolve("pids"));
        // sh starts a child and becomes a process that never reaps it: killed, the child stays a zombie.
        Process parent = new ProcessBuilder("sh", "-c", "sleep 600 & echo $!; exec sleep 600").start();
        try {
            long child = Long.parseLong(new BufferedReader(new InputStreamReader(parent.getInputStream())).readLine());
            // Until the shell has become sleep it may still reap its job itself (seen under load): kill after the exec.
            Await.until(Duration.ofSeconds(10), () -> parent.info().command().orElse("").endsWith("/sleep"),
                    "the shell to exec sleep");
            ProcessHandle.of(child).orElseThrow().destroyForcibly();
            Await.until(Duration.ofSeconds(10), () -> state(child) == 'Z', "the child to be a zombie");
            Files.writeString(pids.resolve("service.pid"), child + "\n");
            Files.writeString(pids.resolve("redis.pid"), ProcessHandle.current().pid() + "\n");

            String status = stack.run(env, SCRIPT, "bin/seckill", "status").output();
            assertTrue(stopped(status, "service"), "a zombie is not the service:\n" + status);
            assertTrue(stopped(status, "redis"), "this test's JVM is not Redis:\n" + status);
            Stack.Outcome down = stack.run(env, SCRIPT, "bin/seckill", "down", "redis");
            assertEquals(0, down.exit(), down.output());
        } finally {
            parent.destroyForcibly();
        }
        // Still here: down did not signal the stranger.
    }

    @Test
    void statusShowsEveryComponentOfTheRunningStackHealthy() {
        String out = stack.seckill(SCRIPT, "status");
        for (String c : new String[]{"redis", "db", "kafka", "service", "writer", "edge"}) {
            assertTrue(healthy(out, c), c + " not healthy in:\n" + out);
        }
    }

    private static boolean healthy(String status, String component) {
        return status.lines().anyMatch(l -> l.startsWith(component + " ") && l.endsWith(" healthy"));
    }

    private static boolean stopped(String status, String component) {
        return status.lines().anyMatch(l -> l.matches(component + " +- +.* stopped"));
    }

    private static String lastLine(Stack.Outcome o) {
        return o.output().strip().lines().reduce((a, b) -> b).orElse("");
    }

    private static long pidIn(Map<String, String> env, String component) throws Exception {
        return Long.parseLong(Files.readString(Path.of(env.get("SECKILL_RUN_DIR"), "pids", component + ".pid")).strip());
    }

    /** The process state letter of /proc/PID/stat (R, S, Z, ...), or '-' once the process is gone. */
    private static char state(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2);
        } catch (Exception e) {
            return '-';
        }
    }

    /** Alive and not a zombie (ProcessHandle.isAlive counts a zombie alive until it is reaped). */
    private static boolean running(long pid) {
        char s = state(pid);
        return s != '-' && s != 'Z' && s != 'X';
    }

    private static void signal(String signal, long pid) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertEquals(0, p.waitFor(), "kill -" + signal + " " + pid);
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static boolean portFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (Exception e) {
            return false;
        }
    }
}
