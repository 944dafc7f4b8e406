package dev.seckill.testkit;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link HttpJson#attempt}: every outcome is an answer, never a failed test. */
class HttpJsonAttemptTest {

    private final CountDownLatch released = new CountDownLatch(1);
    private HttpServer server;
    private String base;

    @BeforeEach
    void serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        // What an nginx in front of a dead upstream says when nobody made it say JSON.
        server.createContext("/api/sales/7/purchase", e -> answer(e, 502, "text/html",
                "<html><body><h1>502 Bad Gateway</h1></body></html>"));
        server.createContext("/api/no-such-route", e -> answer(e, 404, "application/json",
                "{\"code\":\"NOT_FOUND\",\"message\":\"no such route\",\"requestId\":\"r1\"}"));
        server.createContext("/api/sales/8", e -> {
            try {
                released.await();
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
            answer(e, 404, "application/json", "{}");
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        released.countDown();
        server.stop(0);
    }

    @Test
    void anAnswerTheDocumentDoesNotDescribeIsNamedNotThrown() {
        HttpJson.Answer a = new HttpJson().attempt("POST", base + "/api/sales/7/purchase", null).join();
        assertEquals(502, a.status());
        assertTrue(a.contract() != null && a.contract().contains("502"), String.valueOf(a.contract()));
        assertTrue(a.json().isMissingNode(), "an HTML body has no JSON");
        assertNull(a.code());
    }

    @Test
    void anAnswerTheDocumentDescribesPasses() {
        HttpJson.Answer a = new HttpJson().attempt("GET", base + "/api/no-such-route", null).join();
        assertEquals(404, a.status());
        assertEquals("NOT_FOUND", a.code());
        assertNull(a.contract());
        assertNull(a.failure());
    }

    @Test
    void aRefusedConnectionIsStatusZeroNotATimeout() {
        server.stop(0);
        HttpJson.Answer a = new HttpJson().attempt("GET", base + "/api/no-such-route", null).join();
        assertEquals(0, a.status());
        assertNull(a.contract());
        assertFalse(a.timedOut(), String.valueOf(a.failure()));
    }

    @Test
    void anAnswerPastTheRequestTimeoutIsStatusZeroAndATimeout() {
        HttpJson.Answer a = new HttpJson(Duration.ofSeconds(2), Duration.ofMillis(300))
                .attempt("GET", base + "/api/sales/8", null).join();
        assertEquals(0, a.status());
        assertTrue(a.timedOut(), String.valueOf(a.failure()));
    }

    @Test
    void cancellingTheFutureEndsTheWait() {
        CompletableFuture<HttpJson.Answer> f = new HttpJson().attempt("GET", base + "/api/sales/8", null);
        assertTrue(f.cancel(true));
        assertTrue(f.isCancelled());
    }

    private static void answer(com.sun.net.httpserver.HttpExchange e, int status, String type, String body)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        e.getResponseHeaders().set("Content-Type", type);
        e.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = e.getResponseBody()) {
            out.write(bytes);
        }
    }
}
