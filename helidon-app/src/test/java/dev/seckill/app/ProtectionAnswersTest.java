package dev.seckill.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.protection.Solver;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import io.helidon.webserver.testing.junit5.RoutingTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every answer of the protected-sale routes through the routing, no stack: challenge, path, purchase. */
@RoutingTest
class ProtectionAnswersTest {

    private static final FakeApi API = new FakeApi();
    private static final long BUYER = 42;
    private static final String CHALLENGED = "/api/sales/" + FakeApi.CHALLENGED.id();
    private static final String PATHED = "/api/sales/" + FakeApi.PATHED.id();

    private final DirectClient client;

    ProtectionAnswersTest(DirectClient client) {
        this.client = client;
    }

    @SetUpRoute
    static void routing(HttpRouting.Builder routing) {
        API.routes.api(routing);
    }

    @BeforeEach
    void reset() {
        API.reset();
    }

    private Reply get(String path, long user) {
        return Reply.of(client.get(path).header(HeaderNames.AUTHORIZATION, API.bearer(user)));
    }

    private Reply post(String path, long user, String body) {
        return Reply.of(client.post(path).header(HeaderNames.AUTHORIZATION, API.bearer(user)), body);
    }

    private JsonNode challenge(long user) {
        Reply r = get(CHALLENGED + "/challenge", user);
        assertEquals(200, r.status(), r.body());
        return r.json();
    }

    private static String solution(JsonNode c, String nonce) {
        return "{\"challengeId\":\"" + c.path("challengeId").asText() + "\",\"nonce\":\"" + nonce + "\"}";
    }

    private static String solved(JsonNode c) {
        return solution(c, Solver.solve(c.path("salt").asText(), c.path("bits").asInt()));
    }

    private String path(long user) {
        Reply r = post(CHALLENGED + "/path", user, solved(challenge(user)));
        assertEquals(200, r.status(), r.body());
        return r.json().path("path").asText();
    }

    @Test
    void aChallengeNamesItsAlgorithmSaltBitsAndExpiry() {
        JsonNode c = challenge(BUYER);
        assertEquals("sha256-leading-zero-bits", c.path("algorithm").asText());
        assertEquals(4, c.path("bits").asInt());
        assertEquals(FakeApi.NOW.plusSeconds(60).toString(), c.path("expiresAt").asText());
        assertTrue(c.path("challengeId").asText().startsWith(c.path("salt").asText() + "."));
    }

    @Test
    void aSolvedChallengeGivesAPathThatBuys() {
        Reply p = post(CHALLENGED + "/path", BUYER, solved(challenge(BUYER)));
        assertEquals(200, p.status(), p.body());
        assertEquals(FakeApi.NOW.plusSeconds(120).toString(), p.json().path("expiresAt").asText());
        Reply bought = post(CHALLENGED + "/purchase/" + p.json().path("path").asText(), BUYER, null);
        assertEquals(202, bought.status(), bought.body());
        assertEquals("QUEUED", bought.code());
    }

    @Test
    void aReplayedSolutionAnswers409ChallengeUsed() {
        String body = solved(challenge(BUYER));
        assertEquals(200, post(CHALLENGED + "/path", BUYER, body).status());
        Reply again = post(CHALLENGED + "/path", BUYER, body);
        assertEquals(409, again.status());
        assertEquals("CHALLENGE_USED", again.code());
    }

    @Test
    void aWrongNonceOrAnotherUsersChallengeAnswers400ChallengeFailed() {
        JsonNode c = challenge(BUYER);
        Reply wrong = post(CHALLENGED + "/path", BUYER, solution(c, Solver.wrong(c.path("salt").asText(), 4)));
        assertEquals(400, wrong.status());
        assertEquals("CHALLENGE_FAILED", wrong.code());
        assertTrue(wrong.json().has("requestId"));
        Reply foreign = post(CHALLENGED + "/path", BUYER + 1, solved(c));
        assertEquals(400, foreign.status());
        assertEquals("CHALLENGE_FAILED", foreign.code());
        assertEquals("CHALLENGE_FAILED", post(CHALLENGED + "/path", BUYER, "{}").code(), "no solution at all");
    }

    @Test
    void aMalformedNonceIsABadRequestNamingTheField() {
        JsonNode c = challenge(BUYER);
        Reply r = post(CHALLENGED + "/path", BUYER, solution(c, "12x"));
        assertEquals(400, r.status());
        assertEquals("nonce", r.json().path("field").asText());
    }

    @Test
    void theChallengeAndPathNeedASignedInUser() {
        assertEquals(401, Reply.of(client.get(CHALLENGED + "/challenge")).status());
        assertEquals(401, Reply.of(client.post(PATHED + "/path")).status());
    }

    @Test
    void unknownSalesAnswer404() {
        assertEquals("SALE_NOT_FOUND", get("/api/sales/99/challenge", BUYER).code());
        assertEquals("SALE_NOT_FOUND", get("/api/sales/007/challenge", BUYER).code());
        assertEquals("SALE_NOT_FOUND", post("/api/sales/99/path", BUYER, null).code());
    }

    @Test
    void unprotectedSalesHaveNoChallengeAndNoPath() {
        Reply c = get("/api/sales/" + FakeApi.ACTIVE.id() + "/challenge", BUYER);
        assertEquals(409, c.status());
        assertEquals("NO_CHALLENGE", c.code());
        assertEquals("NO_CHALLENGE", get(PATHED + "/challenge", BUYER).code());
        Reply p = post("/api/sales/" + FakeApi.ACTIVE.id() + "/path", BUYER, null);
        assertEquals(409, p.status());
        assertEquals("NOT_PROTECTED", p.code());
    }

    @Test
    void aPathSaleGivesAPathWithoutAChallenge() {
        Reply p = post(PATHED + "/path", BUYER, null);
        assertEquals(200, p.status(), p.body());
        assertEquals(202, post(PATHED + "/purchase/" + p.json().path("path").asText(), BUYER, null).status());
    }

    @Test
    void thePlainRouteOfAProtectedSaleAnswers403PathRequiredBeforeRedis() {
        for (String sale : new String[] {CHALLENGED, PATHED}) {
            Reply r = post(sale + "/purchase", BUYER, null);
            assertEquals(403, r.status(), r.body());
            assertEquals("PATH_REQUIRED", r.code());
        }
        assertEquals(0, API.reserver.reserveCalls(), "Redis was not asked");
    }

    @Test
    void aTamperedForeignOrOtherSalesPathAnswers403PathInvalidBeforeRedis() {
        String p = path(BUYER);
        String tampered = p.substring(0, 31) + (p.charAt(31) == 'A' ? 'B' : 'A');
        assertEquals("PATH_INVALID", post(CHALLENGED + "/purchase/" + tampered, BUYER, null).code());
        assertEquals("PATH_INVALID", post(CHALLENGED + "/purchase/" + p, BUYER + 1, null).code(), "another user's");
        assertEquals("PATH_INVALID", post(PATHED + "/purchase/" + p, BUYER, null).code(), "another sale's");
        Reply plain = post("/api/sales/" + FakeApi.ACTIVE.id() + "/purchase/" + p, BUYER, null);
        assertEquals(403, plain.status());
        assertEquals("PATH_INVALID", plain.code(), "an unprotected sale never issued a path");
        assertEquals("PATH_INVALID", post(CHALLENGED + "/purchase/short", BUYER, null).code());
        assertEquals(0, API.reserver.reserveCalls(), "Redis was not asked");
    }

    @Test
    void theSaleViewTellsItsProtection() {
        assertEquals("challenge", Reply.of(client.get(CHALLENGED)).json().path("protection").asText());
        assertEquals("none", Reply.of(client.get("/api/sales/" + FakeApi.ACTIVE.id())).json().path("protection").asText());
    }
}
