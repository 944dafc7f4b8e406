package dev.seckill.chaos.load;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two entry points, the first of which goes silent (as a paused load balancer: its health probe and every request
 * wait): the request waiting there is cut once the probes miss, and new requests go to the other.
 */
class EntriesTest {

    private static final String SALE = "{\"id\":7,\"name\":\"s\",\"stock\":1,\"remaining\":0,\"state\":\"SOLD_OUT\"}";

    private final CountDownLatch silent = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private HttpServer first;
    private HttpServer second;
    private Entries entries;

    @BeforeEach
    void serve() throws IOException {
        first = server(e -> {
            if (e.getRequestURI().getPath().equals("/lb/health") && silent.getCount() > 0) {
                answer(e, 200, "{\"status\":\"UP\"}");
                return;
            }
            silent.countDown();
            await(released);
            answer(e, 200, SALE);
        });
        second = server(e -> answer(e, e.getRequestURI().getPath().equals("/lb/health") ? 200 : 410,
                "{\"code\":\"SOLD_OUT\",\"message\":\"sold out\",\"requestId\":\"r\"}"));
        entries = new Entries(List.of("a", "b"), n -> "http://127.0.0.1:"
                + (n.equals("a") ? first : second).getAddress().getPort(), 4, 20_000, m -> { });
    }

    @AfterEach
    void stop() {
        released.countDown();
        entries.close();
        first.stop(0);
        second.stop(0);
    }

    @Test
    void aRequestWaitingOnAnEntryThatGoesSilentIsCutAndTheNextGoesToTheOther() {
        Entries.Answer a = entries.post("/api/sales/7/purchase", null, "r1", null);
        assertEquals(0, a.status());
        assertTrue(a.cut(), "cut, not timed out: " + a);
        assertEquals("a", a.entry());
        Entries.Answer again = entries.post("/api/sales/7/purchase", null, "r2", a.entry());
        assertEquals("b", again.entry(), "the click again goes to the other");
        assertEquals(410, again.status());
        assertEquals("b", entries.post("/api/sales/7/purchase", null, "r3", null).entry(), "the silent one is out");
    }

    private interface Handler {
        void handle(HttpExchange e) throws IOException;
    }

    private static HttpServer server(Handler h) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        s.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        s.createContext("/", h::handle);
        s.start();
        return s;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void answer(HttpExchange e, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        e.getResponseHeaders().add("Content-Type", "application/json");
        e.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = e.getResponseBody()) {
            out.write(bytes);
        }
    }
}
