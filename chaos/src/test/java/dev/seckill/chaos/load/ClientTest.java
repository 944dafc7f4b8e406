package dev.seckill.chaos.load;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClientTest {

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
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void anAnswerTheDocumentDoesNotDescribeIsNamed() {
        Client.Answer a = new Client(4, 6_000).post(base + "/api/sales/7/purchase", null, "r1");
        assertEquals(502, a.status());
        assertTrue(a.contract() != null && a.contract().contains("502"), String.valueOf(a.contract()));
    }

    @Test
    void anAnswerTheDocumentDescribesPasses() {
        Client.Answer a = new Client(4, 6_000).get(base + "/api/no-such-route", "r2");
        assertEquals(404, a.status());
        assertEquals("NOT_FOUND", a.code());
        assertNull(a.contract());
    }

    @Test
    void noAnswerIsNoMisfit() {
        server.stop(0);
        Client.Answer a = new Client(4, 6_000).get(base + "/api/no-such-route", "r3");
        assertEquals(0, a.status());
        assertNull(a.contract());
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
