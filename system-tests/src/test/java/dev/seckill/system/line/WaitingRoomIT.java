package dev.seckill.system.line;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.identity.TokenSigner;
import dev.seckill.line.LineTicket;
import dev.seckill.line.LineTickets;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.PrometheusText;
import dev.seckill.testkit.Stack;
import org.apache.commons.math3.stat.correlation.SpearmansCorrelation;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A waiting-room sale through the edge of the real stack (docs/waiting-room.md): joining, the shuffled pre-queue,
 * polls the edge answers alone, tickets it refuses, admission and the purchase, and the waitlist that hands a
 * returned unit to the next in line. Every answer is checked against the OpenAPI document (HttpJson), and every sale
 * ends consistent in MySQL and Redis with no more live orders than units.
 */
class WaitingRoomIT {

    private static final AtomicLong USERS = new AtomicLong(5_000_000_000L + System.nanoTime() % 1_000_000_000L);
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final Stack stack = Stack.get();
    private final HttpJson http = new HttpJson();
    private final AdminSales sales = new AdminSales(stack, http);
    private final TokenSigner signer = new TokenSigner(stack.tokenSecret(), Duration.ofHours(1), Clock.systemUTC());

    /** A sale of an hour from {@code startsAt}; its waiting room, and any more fields, follow, then create(). */
    private AdminSales.Sale sale(int stock, Instant startsAt) {
        return sales.sale("line").stock(stock).startsAt(startsAt).endsAt(startsAt.plusSeconds(3600));
    }

    /**
     * Each buyer from an address of their own (the test stack's edge believes X-Forwarded-For from loopback), so the
     * per-IP limits see a crowd, as they would.
     */
    private static String address(long user) {
        return "10." + (user >> 16 & 255) + "." + (user >> 8 & 255) + "." + (user & 255);
    }

    private HttpJson.Response join(long sale, long user) {
        return http.post(stack.edgeUrl() + "/api/sales/" + sale + "/line", null,
                "Authorization", HttpJson.bearer(signer.mint(user)), "X-Forwarded-For", address(user));
    }

    private HttpJson.Response poll(long sale, String ticket) {
        String[] parts = ticket.split("\\.");
        String from = parts.length > 2 && parts[2].matches("[0-9]{1,18}") ? address(Long.parseLong(parts[2]))
                : "10.255.255.255";
        return http.get(stack.edgeUrl() + "/api/sales/" + sale + "/line", "X-Line-Ticket", ticket,
                "X-Forwarded-For", from);
    }

    private HttpJson.Response buy(long sale, long user, String ticket) {
        return ticket == null
                ? http.post(stack.edgeUrl() + "/api/sales/" + sale + "/purchase", null,
                "Authorization", HttpJson.bearer(signer.mint(user)))
                : http.post(stack.edgeUrl() + "/api/sales/" + sale + "/purchase", null,
                "Authorization", HttpJson.bearer(signer.mint(user)), "X-Line-Ticket", ticket);
    }

    private HttpJson.Response pollUntil(long sale, String ticket, String code) {
        return Await.value(WAIT, () -> {
            HttpJson.Response r = poll(sale, ticket);
            return code.equals(r.code()) ? r : null;
        }, "the line to answer " + code);
    }

    /** The sale's consistency view agrees, once the writer has caught up, with at most {@code stock} live orders. */
    private void consistent(long sale, int stock) {
        JsonNode stats = Await.value(WAIT, () -> {
            HttpJson.Response r = http.get(stack.adminUrl() + "/admin/sales/" + sale + "/stats",
                    "Authorization", HttpJson.bearer(stack.adminToken()));
            return r.json().path("consistent").asBoolean() ? r.json() : null;
        }, "sale " + sale + " to be consistent");
        long live = stats.path("dbConfirmed").asLong() + stats.path("dbPaid").asLong();
        assertTrue(live <= stock, "no oversell: " + stats);
    }

    @Test
    void aBuyerJoinsWaitsIsAdmittedInTurnAndBuysEveryoneElseIsRefusedAtTheEdge() {
        Instant start = Instant.now().plusSeconds(4);
        long sale = sale(1, start).waitingRoom(60, 30).create();
        long first = USERS.incrementAndGet();
        long second = USERS.incrementAndGet();

        HttpJson.Response early = join(sale, first);
        assertEquals(200, early.status(), early.body());
        assertEquals("IN_LINE", early.code());
        assertTrue(early.json().path("position").isNull(), "no place before the draw");
        assertEquals(start.toString(), early.json().path("drawAt").asText());
        String ticket = early.json().path("ticket").asText();
        assertEquals(ticket, join(sale, first).json().path("ticket").asText(), "one place per buyer");
        HttpJson.Response notYet = buy(sale, first, ticket);
        assertEquals(429, notYet.status(), notYet.body());
        assertEquals("NOT_ADMITTED", notYet.code());
        assertEquals("edge", notYet.header("X-Seckill-Answered-By"));

        // Joining after the draw: behind the whole pre-queue, first come first served.
        Await.until(WAIT, () -> !Instant.now().isBefore(start), "the start");
        HttpJson.Response late = Await.value(WAIT, () -> {
            HttpJson.Response r = join(sale, second);
            return r.json().path("approximate").asBoolean(true) ? null : r;
        }, "a place after the draw");
        assertEquals("IN_LINE", late.code(), late.body());
        assertEquals(2, late.json().path("position").asLong(), late.body());

        HttpJson.Response admitted = pollUntil(sale, ticket, "ADMITTED");
        assertEquals("edge", admitted.header("X-Seckill-Answered-By"));
        assertNotNull(Instant.parse(admitted.json().path("admittedUntil").asText()));
        String secondTicket = late.json().path("ticket").asText();
        HttpJson.Response stillWaiting = buy(sale, second, secondTicket);
        assertEquals(429, stillWaiting.status(), stillWaiting.body());
        assertEquals(2, stillWaiting.json().path("position").asLong());
        HttpJson.Response noTicket = buy(sale, second, null);
        assertEquals("NOT_ADMITTED", noTicket.code(), noTicket.body());
        assertTrue(noTicket.json().path("position").isNull());
        HttpJson.Response someoneElses = buy(sale, second, ticket);
        assertEquals(403, someoneElses.status(), someoneElses.body());
        assertEquals("TICKET_INVALID", someoneElses.code());

        HttpJson.Response bought = buy(sale, first, ticket);
        assertEquals(202, bought.status(), bought.body());
        HttpJson.Response again = join(sale, first);
        assertEquals(409, again.status(), again.body());
        assertEquals("ALREADY_PURCHASED", again.code());
        assertEquals(bought.json().path("orderId").asText(), again.json().path("orderId").asText());

        // The unit is gone but its order is unpaid: the second buyer waits on a waitlist for it.
        HttpJson.Response waitlist = pollUntil(sale, secondTicket, "WAITLIST");
        assertEquals(1, waitlist.json().path("returning").asLong(), waitlist.body());
        consistent(sale, 1);
    }

    @Test
    void forgedAlteredExpiredAndOtherSalesTicketsAreRefusedByTheEdge() {
        long sale = sale(5, Instant.now().minusSeconds(1)).waitingRoom(0).create();
        long other = sale(5, Instant.now().minusSeconds(1)).waitingRoom(0).create();
        long user = USERS.incrementAndGet();
        String ticket = join(sale, user).json().path("ticket").asText();
        String otherTicket = join(other, user).json().path("ticket").asText();
        String expired = new LineTickets(stack.lineSecret(), Clock.systemUTC())
                .sign(new LineTicket(sale, user, false, 99, Instant.now().minusSeconds(1).getEpochSecond()));
        String forged = new LineTickets("not-the-secret-but-32-bytes-long!!", Clock.systemUTC())
                .sign(new LineTicket(sale, user, false, 1, Instant.now().plusSeconds(600).getEpochSecond()));
        String altered = ticket.replaceFirst("\\.s(\\d+)\\.", ".s7$1.");
        String[][] cases = {
                {forged, "TICKET_INVALID"}, {altered, "TICKET_INVALID"}, {otherTicket, "TICKET_INVALID"},
                {expired, "TICKET_EXPIRED"}, {"garbage", "TICKET_INVALID"},
        };
        for (String[] c : cases) {
            HttpJson.Response polled = poll(sale, c[0]);
            assertEquals(403, polled.status(), c[0] + " " + polled.body());
            assertEquals(c[1], polled.code(), c[0]);
            assertEquals("edge", polled.header("X-Seckill-Answered-By"), c[0]);
            HttpJson.Response bought = buy(sale, user, c[0]);
            assertEquals(403, bought.status(), c[0] + " " + bought.body());
            assertEquals(c[1], bought.code(), c[0]);
        }
        assertEquals(200, poll(sale, ticket).status());
        consistent(sale, 5);
    }

    @Test
    void pollsOfAWholeLineAreAnsweredByTheEdgeWithoutTheService() {
        long sale = sale(1, Instant.now().minusSeconds(1)).waitingRoom(0).create();
        List<String> tickets = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            tickets.add(join(sale, USERS.incrementAndGet()).json().path("ticket").asText());
        }
        poll(sale, tickets.getFirst());
        double before = serviceRequests();
        long t0 = System.nanoTime();
        int polls = 0;
        for (int round = 0; round < 10; round++) {
            for (String t : tickets) {
                HttpJson.Response r = poll(sale, t);
                assertEquals(200, r.status(), r.body());
                assertEquals("edge", r.header("X-Seckill-Answered-By"));
                polls++;
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double reached = serviceRequests() - before;
        // At most one progress read per second of polling (seckill.line.interval-ms), and nothing else of this test.
        assertTrue(reached <= Math.ceil(seconds) + 1, polls + " polls in " + seconds + " s reached the service "
                + reached + " times");
    }

    @Test
    void thePrequeueIsShuffledOnceAndLaterBuyersQueueInTheirOrder() {
        Instant start = Instant.now().plusSeconds(8);
        long sale = sale(1, start).waitingRoom(60).create();
        int n = 120;
        long[] users = new long[n];
        for (int i = 0; i < n; i++) {
            users[i] = USERS.incrementAndGet();
            assertEquals(200, join(sale, users[i]).status());
        }
        Await.until(WAIT, () -> !Instant.now().isBefore(start), "the start");
        // Joining again after the draw answers the exact place; the one unit's admission goes to place 1.
        long[] places = new long[n];
        for (int i = 0; i < n; i++) {
            int at = i;
            places[i] = Await.value(WAIT, () -> {
                JsonNode j = join(sale, users[at]).json();
                if (j.path("code").asText().equals("ADMITTED")) {
                    return 1L;
                }
                return j.path("approximate").asBoolean(true) ? null : j.path("position").asLong();
            }, "an exact place");
        }
        assertEquals(n, java.util.Arrays.stream(places).distinct().count(), "one place each");
        double rho = spearman(places);
        // For a uniform shuffle of 120, rho has a standard deviation of about 0.09: |rho| >= 0.4 happens with a
        // probability of about 1e-5.
        assertTrue(Math.abs(rho) < 0.4, "joining order and place are unrelated: rho " + rho);

        long[] later = new long[20];
        for (int i = 0; i < later.length; i++) {
            later[i] = join(sale, USERS.incrementAndGet()).json().path("position").asLong();
            assertEquals(n + i + 1, later[i], "after the draw, first come first served");
        }
    }

    @Test
    void aUnitThatComesBackGoesToTheNextInLineAndPaidOrdersEndTheLine() {
        long sale = sale(1, Instant.now().minusSeconds(1)).waitingRoom(0, 30)
                .with("payWindowSeconds", 6).create();
        long a = USERS.incrementAndGet();
        long b = USERS.incrementAndGet();
        long c = USERS.incrementAndGet();
        String ta = join(sale, a).json().path("ticket").asText();
        String tb = join(sale, b).json().path("ticket").asText();
        String tc = join(sale, c).json().path("ticket").asText();
        pollUntil(sale, ta, "ADMITTED");
        assertEquals(202, buy(sale, a, ta).status());
        assertEquals("WAITLIST", pollUntil(sale, tb, "WAITLIST").code());

        // a never pays: its order lapses, the unit comes back and admits b (next in line), not c.
        HttpJson.Response admitted = pollUntil(sale, tb, "ADMITTED");
        // An admission still open, for at most the sale's 30 s (the edge, the service and this test share a clock).
        Instant until = Instant.parse(admitted.json().path("admittedUntil").asText());
        Instant now = Instant.now();
        assertTrue(until.isAfter(now) && !until.isAfter(now.plusSeconds(30)), "admittedUntil " + until + " at "
                + now + ": " + admitted.body());
        HttpJson.Response cWaits = poll(sale, tc);
        assertTrue(List.of("IN_LINE", "WAITLIST").contains(cWaits.code()), cWaits.body());
        HttpJson.Response bought = buy(sale, b, tb);
        assertEquals(202, bought.status(), bought.body());
        String order = bought.json().path("orderId").asText();

        // b pays: nothing can come back any more, and c hears SOLD_OUT.
        HttpJson.Response paid = Await.value(WAIT, () -> {
            HttpJson.Response r = http.post(stack.edgeUrl() + "/api/orders/" + order + "/pay", null,
                    "Authorization", HttpJson.bearer(signer.mint(b)), "Idempotency-Key", "pay-" + order);
            return r.status() == 200 ? r : null;
        }, "the order to be paid");
        assertEquals("PAID", paid.code());
        HttpJson.Response soldOut = pollUntil(sale, tc, "SOLD_OUT");
        assertEquals(410, soldOut.status());
        assertEquals("1", soldOut.header("X-Seckill-Sold-Out"));
        consistent(sale, 1);
    }

    /** Requests the service's public listener has answered (its own counter). */
    private double serviceRequests() {
        HttpJson.Response r = http.get(stack.adminUrl() + "/observe/metrics",
                "Authorization", HttpJson.bearer(stack.adminToken()));
        return PrometheusText.samples(r.body()).entrySet().stream()
                .filter(e -> e.getKey().startsWith("seckill_api_requests_total")).mapToDouble(Map.Entry::getValue).sum();
    }

    /** Spearman's rank correlation between the joining order (0..n-1) and the places. */
    private static double spearman(long[] places) {
        return new SpearmansCorrelation().correlation(IntStream.range(0, places.length).asDoubleStream().toArray(),
                Arrays.stream(places).asDoubleStream().toArray());
    }
}
