package dev.seckill.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.testkit.Await;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * This JVM stands in for the service: its own thread dump (the diagnostic command the bench invokes on the service)
 * and its own JFR recording, read as the bench reads them.
 */
class ServiceProfileTest {

    @Test
    void aParkedRequestThreadIsAWaitingSampleWhereItWaited(@TempDir Path dir) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Thread request = Thread.ofVirtual().start(() -> waitForRedis(release));
        Await.until(Duration.ofSeconds(10), () -> request.getState() == Thread.State.WAITING, "the thread to park");
        Path dump = dir.resolve("threads.json");
        try {
            // What ServiceRecording.threadDump asks of the service, here of this JVM.
            ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "threadDumpToFile",
                    new Object[] {new String[] {"-format=json", "-overwrite", dump.toString()}},
                    new String[] {String[].class.getName()});
        } finally {
            release.countDown();
            request.join();
        }

        List<WallClock.DumpedThread> threads = WallClock.virtualThreads(new ObjectMapper().readTree(Files.readAllBytes(dump)));

        WallClock.DumpedThread t = threads.stream().filter(d -> d.classes().contains(getClass().getName()))
                .findFirst().orElseThrow(() -> new AssertionError("the parked virtual thread is not in " + threads));
        assertEquals("WAITING", t.state());
        assertEquals("d.s.b.ServiceProfileTest.waitForRedis", t.names().get(StackCategory.firstOwnFrame(t.classes())));
    }

    @Test
    void connectionsAtWorkAreSampledByPartAndIdleOnesCountedApart() throws Exception {
        String dump = """
                {"threadDump": {"threadContainers": [{"container": "<root>", "threads": [
                  {"tid": "1", "virtual": true, "state": "WAITING", "stack": [
                    "java.base/java.util.concurrent.locks.LockSupport.park(LockSupport.java:221)",
                    "org.redisson.command.CommandAsyncService.get(CommandAsyncService.java:9)",
                    "dev.seckill.purchase.Purchases.buy(Purchases.java:1)",
                    "io.helidon.webserver.http1.Http1Connection.handle(Http1Connection.java:1)"]},
                  {"tid": "2", "virtual": true, "state": "RUNNABLE", "stack": [
                    "org.apache.kafka.clients.producer.KafkaProducer.send(KafkaProducer.java:1)",
                    "dev.seckill.purchase.Purchases.buy(Purchases.java:1)",
                    "io.helidon.webserver.http1.Http1Connection.handle(Http1Connection.java:1)"]},
                  {"tid": "6", "virtual": true, "state": "RUNNABLE", "stack": [
                    "java.base/java.lang.VirtualThread.park(VirtualThread.java:1)",
                    "org.redisson.command.CommandAsyncService.get(CommandAsyncService.java:9)",
                    "dev.seckill.purchase.Purchases.buy(Purchases.java:1)",
                    "io.helidon.webserver.http1.Http1Connection.handle(Http1Connection.java:1)"]},
                  {"tid": "3", "virtual": true, "state": "WAITING", "stack": [
                    "java.base/sun.nio.ch.NioSocketImpl.park(NioSocketImpl.java:1)",
                    "io.helidon.common.socket.NioSocket.get(NioSocket.java:1)",
                    "io.helidon.webserver.http1.Http1Connection.handle(Http1Connection.java:1)"]},
                  {"tid": "4", "virtual": true, "state": "TIMED_WAITING", "stack": [
                    "java.base/java.lang.Thread.sleep(Thread.java:1)",
                    "dev.seckill.expiry.ExpiryRunner.run(ExpiryRunner.java:1)"]},
                  {"tid": "5", "name": "main", "state": "RUNNABLE", "stack": [
                    "dev.seckill.app.Main.main(Main.java:1)", "io.helidon.webserver.X.y(X.java:1)"]}]}]}}""";
        WallClock wall = new WallClock(null, Path.of("unused"), Duration.ofSeconds(1));

        wall.add(new ObjectMapper().readTree(dump));

        assertEquals(3, wall.samples(), "the three connections at work; not the runner, not a platform thread");
        assertEquals(1, wall.idle());
        assertEquals(Map.of(WallClock.WAITING + " · " + StackCategory.REDISSON, 1.0,
                WallClock.RUNNING + " · " + StackCategory.KAFKA, 1.0, WallClock.READY + " · " + StackCategory.REDISSON, 1.0),
                wall.parts());
        assertTrue(wall.sites().containsKey(WallClock.WAITING + " in o.r.c.CommandAsyncService.get"), wall.sites().toString());
    }

    @Test
    void theRecordingIsSummarisedAndTheGraphsWritten(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("t.jfr");
        try (Recording r = new Recording()) {
            r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            r.enable("jdk.GarbageCollection");
            r.start();
            System.gc();
            r.stop();
            r.dump(jfr);
        }
        WallClock wall = new WallClock(null, dir.resolve("none.json"), Duration.ofSeconds(1));

        ServiceProfile p = ServiceProfile.read(jfr, 1.0, wall, dir);

        assertTrue(p.gc().collections() >= 1, "System.gc() ran during the recording: " + p.gc());
        assertTrue(Files.readString(dir.resolve(ServiceProfile.CPU_FLAME)).startsWith("<svg"));
        assertTrue(Files.readString(dir.resolve(ServiceProfile.WALL_FLAME)).startsWith("<svg"));
        assertTrue(Files.exists(dir.resolve(ServiceProfile.CPU_COLLAPSED)));
        assertTrue(ProfileMarkdown.render(p).contains("garbage collection: "), ProfileMarkdown.render(p));
    }

    @Test
    void aDumpFrameGivesItsClassAndMethod() {
        assertArrayEquals(new String[] {"java.util.concurrent.locks.LockSupport", "park"},
                WallClock.classAndMethod("java.base/java.util.concurrent.locks.LockSupport.park(LockSupport.java:221)"));
        assertArrayEquals(new String[] {"org.redisson.command.CommandAsyncService", "get"},
                WallClock.classAndMethod("org.redisson.command.CommandAsyncService.get(CommandAsyncService.java:9)"));
    }

    private static void waitForRedis(CountDownLatch release) {
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
