package dev.seckill.purchase;

import com.sun.net.httpserver.HttpServer;
import dev.seckill.testkit.Await;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The service clears the edges' sold-out flag, every edge side by side; a clear that fails is counted.
 */
class EdgeFlagsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<HttpServer> edges = new CopyOnWriteArrayList<>();
    private final List<String> calls = new CopyOnWriteArrayList<>();
    /** The failures counted when each call reached a stand-in edge. */
    private final List<Double> failedAtCall = new CopyOnWriteArrayList<>();

    /** A stand-in edge answering every flag call with {@code status}. */
    private String edge(int status) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        s.createContext("/", ex -> {
            failedAtCall.add(failed());
            calls.add(ex.getRequestMethod() + " " + s.getAddress().getPort() + " " + ex.getRequestURI());
            ex.sendResponseHeaders(status, -1);
            ex.close();
        });
        s.start();
        edges.add(s);
        return "http://127.0.0.1:" + s.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        edges.forEach(s -> s.stop(0));
    }

    private double failed() {
        return registry.get(EdgeFlags.FAILED).counter().count();
    }

    @Test
    void everyEdgeOfTheListIsToldAndNothingFailed() throws Exception {
        String a = edge(204);
        String b = edge(204);
        new EdgeFlags(a + ", " + b + "/", registry).clearSoldOut(7);
        Await.until(Duration.ofSeconds(10), () -> calls.size() == 2, "both edges to be called");
        calls.forEach(c -> assertEquals("DELETE", c.split(" ")[0]));
        calls.forEach(c -> assertEquals("/edge/flags/sold-out/7", c.split(" ")[2]));
        assertEquals(0, failed());
    }

    @Test
    void anEdgeThatHangsDelaysNoOtherEdge() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        HttpServer hanging = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hanging.setExecutor(Executors.newCachedThreadPool());
        hanging.createContext("/", ex -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        hanging.start();
        edges.add(hanging);
        String answering = edge(204);
        try {
            new EdgeFlags("http://127.0.0.1:" + hanging.getAddress().getPort() + "," + answering, registry)
                    .clearSoldOut(7);
            // The second edge is told while the first still holds its call: the calls run side by side. One after
            // the other, the answering edge would be called only once the hanging call had failed at its 1 s
            // timeout, which counts it: so no failure may have been counted when the answering edge was called.
            Await.until(Duration.ofSeconds(10), () -> calls.size() == 1, "the answering edge to be called");
            assertEquals(List.of(0.0), failedAtCall, "the answering edge was called only after the hanging call "
                    + "failed");
        } finally {
            release.countDown();
        }
    }

    @Test
    void anEdgeThatRefusesOrCannotBeReachedIsCounted() throws Exception {
        String refusing = edge(403);
        int closedPort;
        try (ServerSocket free = new ServerSocket(0)) {
            closedPort = free.getLocalPort();
        }
        new EdgeFlags(refusing + ",http://127.0.0.1:" + closedPort, registry).clearSoldOut(7);
        // Each edge is tried ATTEMPTS times, each try counted: the count passes 2 on its way (it once waited for
        // exactly 2, seen only between two tries) and ends at both edges' every try.
        Await.until(Duration.ofSeconds(10), () -> failed() >= 2 * EdgeFlags.ATTEMPTS,
                "every try of both edges to be counted as failed (" + failed() + " so far)");
        assertEquals(2 * EdgeFlags.ATTEMPTS, failed(), "one count per failed try, and no try more");
    }

    @Test
    void noEdgeConfiguredMeansNoCall() {
        new EdgeFlags(" ", registry).clearSoldOut(7);
        assertEquals(0, failed());
    }
}
