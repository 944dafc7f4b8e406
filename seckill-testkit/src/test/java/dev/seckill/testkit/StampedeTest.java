package dev.seckill.testkit;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Who clicks next and when, by the three rules, with made-up times; then one run against a local server. */
class StampedeTest {

    @Test
    void theRulesTellTheCrowdThePageAndThePatientShopperApart() {
        assertEquals(Stampede.Then.STOP, Stampede.CROWD.after(202, "QUEUED"));
        assertEquals(Stampede.Then.STOP, Stampede.CROWD.after(409, "ALREADY_PURCHASED"));
        assertEquals(Stampede.Then.AGAIN, Stampede.CROWD.after(410, "SOLD_OUT"), "disbelief after the sell-out");
        assertEquals(Stampede.Then.AGAIN, Stampede.CROWD.after(429, "RATE_LIMITED"));
        assertEquals(Stampede.Then.STOP, Stampede.PAGE.after(410, "SOLD_OUT"));
        assertEquals(Stampede.Then.WAIT, Stampede.PAGE.after(503, "UNAVAILABLE"));
        assertEquals(Stampede.Then.AGAIN, Stampede.PAGE.after(0, null));
        assertEquals(Stampede.Then.WAIT, Stampede.PATIENT.after(0, null));
        assertEquals(Stampede.Then.STOP, Stampede.PATIENT.after(410, "SOLD_OUT"));
    }

    @Test
    void aShopperClicksAgainFromTheBackOfTheQueueOrOnceItsWaitIsOverAndAtMostItsClicks() {
        Stampede<String> s = new Stampede<>(List.of("a", "b"), 1, 2, Stampede.PAGE, 0);
        Stampede.Shopper<String> first = s.next(0);
        Stampede.Shopper<String> second = s.next(0);
        assertNull(s.next(0), "both are in flight");
        s.answered(first, 0, null, -1, 10);
        s.answered(second, 429, "RATE_LIMITED", 1_000, 10);
        assertSame(first, s.next(20), "no answer: again at once");
        assertNull(s.next(20), "the refused one waits out its Retry-After");
        assertTrue(!s.finished());
        assertSame(second, s.next(1_010));
        s.answered(first, 0, null, -1, 1_020);
        assertNull(s.next(1_030), "two clicks each, and the other is in flight");
        assertTrue(s.finished());
    }

    @Test
    void aRunRecordsEveryClickAndWaitsOutTheEdgesRefusals() throws Exception {
        Map<String, AtomicInteger> clicks = new ConcurrentHashMap<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.createContext("/", ex -> {
            int n = clicks.computeIfAbsent(ex.getRequestHeaders().getFirst("X-Forwarded-For"),
                    k -> new AtomicInteger()).incrementAndGet();
            byte[] body = (n == 1 ? "{\"code\":\"RATE_LIMITED\"}" : "{\"code\":\"QUEUED\",\"orderId\":\"7\"}")
                    .getBytes(StandardCharsets.UTF_8);
            if (n == 1) {
                ex.getResponseHeaders().add("X-Seckill-Answered-By", "edge");
                ex.getResponseHeaders().add("Retry-After", "0");
            }
            ex.sendResponseHeaders(n == 1 ? 429 : 202, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        try {
            List<Stampede.User> users = new ArrayList<>();
            for (long u = 1; u <= 20; u++) {
                users.add(new Stampede.User(u, "token-" + u));
            }
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            List<Stampede.Click> all = Stampede.run(new Stampede.Plan(base, 5, users, 3, 4, Duration.ofSeconds(30), 0));

            Map<Long, List<Stampede.Click>> byUser = all.stream()
                    .collect(Collectors.groupingBy(Stampede.Click::userId));
            assertEquals(20, byUser.size());
            for (List<Stampede.Click> mine : byUser.values()) {
                assertEquals(2, mine.size(), "refused once, then accepted: " + mine);
                Stampede.Click refused = mine.stream().filter(c -> c.status() == 429).findFirst().orElseThrow();
                assertTrue(refused.byEdge() && refused.retryAfterSeconds() == 0, refused.toString());
                Stampede.Click accepted = mine.stream().filter(c -> c.status() == 202).findFirst().orElseThrow();
                assertEquals("7", accepted.orderId());
                assertEquals("QUEUED", accepted.code());
                assertTrue(accepted.startNanos() >= refused.startNanos() + refused.latencyNanos());
            }
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aRunThatChecksTheContractFailsOnAnAnswerTheDocumentDoesNotDescribe() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 8);
        server.createContext("/", ex -> {
            byte[] body = "{\"code\":\"QUEUED\"}".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(202, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            List<Stampede.User> one = List.of(new Stampede.User(1, "token-1"));
            assertEquals(1, Stampede.run(new Stampede.Plan(base, 5, one, 1, 1, Duration.ofSeconds(10), 0)).size(),
                    "unchecked, the answer is only counted");
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> Stampede.run(
                    new Stampede.Plan(base, 5, one, 1, 1, Duration.ofSeconds(10), 0, true)));
            assertTrue(e.getCause() instanceof AssertionError, String.valueOf(e.getCause()));
        } finally {
            server.stop(0);
        }
    }
}
