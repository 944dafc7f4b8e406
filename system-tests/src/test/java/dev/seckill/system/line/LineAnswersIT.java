package dev.seckill.system.line;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.identity.TokenSigner;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One waiting-room line driven through its phases (before the draw, admitted, in line after the draw, a purchase),
 * and at each phase every buyer's poll asked of the edge (which answers it alone, from the progress it learned) and
 * of the service (GET /api/sales/{id}/line on its own port): the two answers must be the same, status and every
 * field, once both hold the same progress (each learns it at most once per interval, so a pair taken across an
 * update may differ; a rule that differs never agrees). docs/waiting-room.md, "One standing".
 */
class LineAnswersIT {

    private static final AtomicLong USERS = new AtomicLong(7_000_000_000L + System.nanoTime() % 1_000_000_000L);
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final Stack stack = Stack.get();
    private final HttpJson http = new HttpJson();
    private final AdminSales sales = new AdminSales(stack, http);
    private final TokenSigner signer = new TokenSigner(stack.tokenSecret(), Duration.ofHours(1), Clock.systemUTC());

    private static String address(long user) {
        return "10." + (user >> 16 & 255) + "." + (user >> 8 & 255) + "." + (user & 255);
    }

    private HttpJson.Response join(long sale, long user) {
        return http.post(stack.edgeUrl() + "/api/sales/" + sale + "/line", null,
                "Authorization", HttpJson.bearer(signer.mint(user)), "X-Forwarded-For", address(user));
    }

    private HttpJson.Response poll(String base, long sale, long user, String ticket) {
        return http.get(base + "/api/sales/" + sale + "/line", "X-Line-Ticket", ticket,
                "X-Forwarded-For", address(user));
    }

    /** A buyer and the ticket their join answered. */
    private record Buyer(long user, String ticket) {
    }

    private Buyer joined(long sale) {
        long user = USERS.incrementAndGet();
        HttpJson.Response r = join(sale, user);
        assertEquals(200, r.status(), r.body());
        return new Buyer(user, r.json().path("ticket").asText());
    }

    /**
     * Polls the buyer's standing at the edge and at the service until both answer the same (status and body, field
     * by field); returns the code they agree on.
     */
    private String agreed(long sale, Buyer b) {
        String[] last = new String[1];
        try {
            return Await.value(WAIT, () -> {
                HttpJson.Response edge = poll(stack.edgeUrl(), sale, b.user(), b.ticket());
                HttpJson.Response service = poll(stack.serviceUrl(), sale, b.user(), b.ticket());
                assertEquals("edge", edge.header("X-Seckill-Answered-By"), "the edge answers polls alone");
                assertNull(service.header("X-Seckill-Answered-By"), "the service's own answer");
                JsonNode e = edge.json();
                JsonNode s = service.json();
                last[0] = "edge " + edge.status() + " " + e + " / service " + service.status() + " " + s;
                return edge.status() == service.status() && e.equals(s) ? e.path("code").asText() : null;
            }, "the edge and the service to answer the same");
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; last: " + last[0], e);
        }
    }

    private Set<String> agreedAll(long sale, List<Buyer> buyers) {
        Set<String> codes = new TreeSet<>();
        for (Buyer b : buyers) {
            codes.add(agreed(sale, b));
        }
        return codes;
    }

    @Test
    void theEdgeAnswersEveryPollOfALineAsTheServiceDoes() {
        // Time enough for the joins and the first comparisons before the draw, on a loaded machine.
        Instant start = Instant.now().plusSeconds(40);
        long sale = sales.sale("answers").stock(2).startsAt(start).endsAt(start.plusSeconds(3600))
                .waitingRoom(60, 30).create();
        List<Buyer> early = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            early.add(joined(sale));
        }
        // Before the draw: IN_LINE with drawAt, no place yet.
        assertEquals(Set.of("IN_LINE"), agreedAll(sale, early));
        assertTrue(Instant.now().isBefore(start), "compared before the draw");

        Await.until(Duration.ofSeconds(60), () -> !Instant.now().isBefore(start), "the start");
        // After the draw: two admitted (the stock), the others in line with estimated places and an ETA; joining
        // now gives exact places behind the pre-queue.
        List<Buyer> late = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            late.add(Await.value(WAIT, () -> {
                long user = USERS.incrementAndGet();
                HttpJson.Response r = join(sale, user);
                return r.json().path("approximate").asBoolean(true) ? null
                        : new Buyer(user, r.json().path("ticket").asText());
            }, "a place after the draw"));
        }
        List<Buyer> all = new ArrayList<>(early);
        all.addAll(late);
        Await.until(WAIT, () -> agreedAll(sale, early).contains("ADMITTED"), "the draw's admissions");
        assertEquals(Set.of("ADMITTED", "IN_LINE"), agreedAll(sale, all));

        // An admitted buyer buys: the line moves on, and both still tell everyone the same.
        Buyer admitted = early.stream().filter(b -> agreed(sale, b).equals("ADMITTED")).findFirst().orElseThrow();
        HttpJson.Response bought = http.post(stack.edgeUrl() + "/api/sales/" + sale + "/purchase", null,
                "Authorization", HttpJson.bearer(signer.mint(admitted.user())), "X-Line-Ticket", admitted.ticket());
        assertEquals(202, bought.status(), bought.body());
        assertEquals(Set.of("ADMITTED", "IN_LINE"), agreedAll(sale, all));
    }
}
