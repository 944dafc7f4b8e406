package dev.seckill.protection;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.identity.TokenSigner;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Protected sales over HTTP through the edge against the running stack: every answer of the challenge, path and purchase
 * routes of protected sales, with the used-challenge record in the real Redis.
 */
class ProtectedSaleIT {

    private static final AtomicLong NEXT_USER = new AtomicLong(System.nanoTime() % 1_000_000_000L * 1000 + 500);
    private static final int BITS = 6;

    private final Stack stack = Stack.get();
    private final HttpJson http = new HttpJson();
    private final TokenSigner signer = new TokenSigner(stack.tokenSecret(), Duration.ofHours(1), Clock.systemUTC());
    private final String api = stack.edgeUrl() + "/api/sales/";

    private long sale(String protection, Instant startsAt) {
        AdminSales.Sale sale = new AdminSales(stack, http).sale("it-").priceCents(100).stock(5).startsAt(startsAt)
                .endsAt(Instant.now().plusSeconds(3600)).with("protection", protection);
        if (protection.equals("challenge")) {
            sale.with("challengeBits", BITS);
        }
        return sale.create();
    }

    private long running(String protection) {
        return sale(protection, Instant.now().minusSeconds(1));
    }

    private String auth(long user) {
        return HttpJson.bearer(signer.mint(user));
    }

    private JsonNode challenge(long sale, long user) {
        HttpJson.Response r = http.get(api + sale + "/challenge", "Authorization", auth(user));
        assertEquals(200, r.status(), r.body());
        return r.json();
    }

    private HttpJson.Response path(long sale, long user, JsonNode c, String nonce) {
        return http.post(api + sale + "/path", "{\"challengeId\":\"" + c.path("challengeId").asText()
                + "\",\"nonce\":\"" + nonce + "\"}", "Authorization", auth(user));
    }

    private static String solve(JsonNode c) {
        return Solver.solve(c.path("salt").asText(), c.path("bits").asInt());
    }

    private HttpJson.Response buy(long sale, long user, String path) {
        return http.post(api + sale + "/purchase" + (path == null ? "" : "/" + path), null, "Authorization", auth(user));
    }

    @Test
    void aShopperSolvesGetsAPathAndBuysOnce() {
        long sale = running("challenge");
        long user = NEXT_USER.incrementAndGet();
        JsonNode c = challenge(sale, user);
        assertEquals("sha256-leading-zero-bits", c.path("algorithm").asText());
        assertEquals(BITS, c.path("bits").asInt());
        HttpJson.Response p = path(sale, user, c, solve(c));
        assertEquals(200, p.status(), p.body());
        String token = p.json().path("path").asText();
        assertTrue(Instant.parse(p.json().path("expiresAt").asText()).isAfter(Instant.now()));
        assertEquals(202, buy(sale, user, token).status());
        assertEquals("ALREADY_PURCHASED", buy(sale, user, token).json().path("code").asText());
    }

    @Test
    void aReplayedSolutionIsUsedAndAWrongOneFails() {
        long sale = running("challenge");
        long user = NEXT_USER.incrementAndGet();
        JsonNode c = challenge(sale, user);
        HttpJson.Response wrong = path(sale, user, c, Solver.wrong(c.path("salt").asText(), BITS));
        assertEquals(400, wrong.status());
        assertEquals("CHALLENGE_FAILED", wrong.json().path("code").asText());
        String nonce = solve(c);
        assertEquals(200, path(sale, user, c, nonce).status());
        HttpJson.Response replay = path(sale, user, c, nonce);
        assertEquals(409, replay.status());
        assertEquals("CHALLENGE_USED", replay.json().path("code").asText());
    }

    @Test
    void anotherUsersChallengeOrOneForAnotherSaleFails() {
        long sale = running("challenge");
        long other = running("challenge");
        long user = NEXT_USER.incrementAndGet();
        JsonNode c = challenge(sale, user);
        String nonce = solve(c);
        assertEquals("CHALLENGE_FAILED", path(sale, NEXT_USER.incrementAndGet(), c, nonce).json().path("code").asText());
        assertEquals("CHALLENGE_FAILED", path(other, user, c, nonce).json().path("code").asText());
    }

    @Test
    void anExpiredChallengeAnswers410() {
        // A challenge id the service issued long ago cannot be had in a test without waiting; one whose MAC is
        // right for an expiry in the past is made with the service's own key, derived from the stack's secret.
        long sale = running("challenge");
        long user = NEXT_USER.incrementAndGet();
        Challenges past = new Challenges(stack.tokenSecret(), Duration.ofSeconds(1),
                Clock.fixed(Instant.now().minusSeconds(120), java.time.ZoneOffset.UTC));
        Challenges.Challenge c = past.issue(sale, user, BITS);
        HttpJson.Response r = http.post(api + sale + "/path", "{\"challengeId\":\"" + c.challengeId()
                + "\",\"nonce\":\"" + Solver.solve(c.salt(), BITS) + "\"}", "Authorization", auth(user));
        assertEquals(410, r.status(), r.body());
        assertEquals("CHALLENGE_EXPIRED", r.json().path("code").asText());
    }

    @Test
    void beforeTheStartTheChallengeAnswers409NotStartedWithRetryAfter() {
        long sale = sale("challenge", Instant.now().plusSeconds(600));
        HttpJson.Response r = http.get(api + sale + "/challenge", "Authorization", auth(NEXT_USER.incrementAndGet()));
        assertEquals(409, r.status(), r.body());
        assertEquals("NOT_STARTED", r.json().path("code").asText());
        assertTrue(r.header("Retry-After") != null, "Retry-After");
    }

    @Test
    void protectedSalesRefuseThePlainRouteAndForeignOrForgedPaths() {
        long sale = running("path");
        long other = running("path");
        long user = NEXT_USER.incrementAndGet();
        HttpJson.Response plain = buy(sale, user, null);
        assertEquals(403, plain.status(), plain.body());
        assertEquals("PATH_REQUIRED", plain.json().path("code").asText());
        HttpJson.Response p = http.post(api + sale + "/path", null, "Authorization", auth(user));
        assertEquals(200, p.status(), p.body());
        String token = p.json().path("path").asText();
        assertEquals("PATH_INVALID", buy(sale, NEXT_USER.incrementAndGet(), token).json().path("code").asText(),
                "another user's path");
        assertEquals("PATH_INVALID", buy(other, user, token).json().path("code").asText(), "a path for another sale");
        String forged = token.substring(0, 31) + (token.charAt(31) == 'A' ? 'B' : 'A');
        HttpJson.Response f = buy(sale, user, forged);
        assertEquals(403, f.status());
        assertEquals("PATH_INVALID", f.json().path("code").asText());
        assertEquals(202, buy(sale, user, token).status(), "the real path still buys");
    }

    @Test
    void anUnprotectedSaleBuysOnThePlainRouteAsBefore() {
        long sale = running("none");
        long user = NEXT_USER.incrementAndGet();
        assertEquals("NO_CHALLENGE", http.get(api + sale + "/challenge", "Authorization", auth(user)).json().path("code").asText());
        assertEquals(202, buy(sale, user, null).status());
    }
}
