package dev.seckill.system.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.sun.net.httpserver.HttpServer;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Jwts;
import dev.seckill.testkit.ShopKeys;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static dev.seckill.testkit.ShopKeys.ec;
import static dev.seckill.testkit.ShopKeys.rsa;
import static dev.seckill.testkit.ShopKeys.sign;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A shop's own identity provider in front of the stack (docs/shop.md): its JWKS served by a small HTTP server in
 * this test, the service restarted with SECKILL_JWT_JWKS_URL pointing at it and an issuer and audience to check.
 * Purchases with RS256 and ES256 tokens succeed through the edge; a key the provider starts serving mid-run (a
 * rotation, new kid) is taken without a restart; bad tokens are 401 with their stable reason, through the edge.
 */
class ShopSignInIT {

    private static final Duration STACK_OP = Duration.ofSeconds(180);
    private static final String ISSUER = "https://id.shop.test";
    private static final String AUDIENCE = "seckill";

    private static final Stack stack = Stack.get();
    private static final HttpJson http = new HttpJson();
    private static final RSAKey RSA = rsa("shop-rsa-1");
    private static final ECKey EC = ec("shop-ec-1");
    private static final AtomicReference<List<JWK>> served = new AtomicReference<>(List.of(RSA, EC));
    private static final AtomicInteger fetches = new AtomicInteger();
    private static final AtomicLong users = new AtomicLong(System.nanoTime() % 1_000_000_000L + 5_000_000_000L);
    private static HttpServer provider;
    private static long sale;

    @BeforeAll
    static void theShopsProviderAndAServiceThatTrustsIt() throws IOException {
        // Public halves only, as a provider serves them.
        provider = ShopKeys.serve(0, "/.well-known/jwks.json", served::get, fetches::incrementAndGet);
        String jwks = "http://127.0.0.1:" + provider.getAddress().getPort() + "/.well-known/jwks.json";
        stack.seckill(Map.of("SECKILL_JWT_JWKS_URL", jwks, "SECKILL_JWT_ISSUER", ISSUER,
                "SECKILL_JWT_AUDIENCE", AUDIENCE, "SECKILL_JWT_JWKS_REFRESH_MS", "1000"), STACK_OP,
                "restart", "service");
        assertTrue(fetches.get() >= 1, "the service fetches the JWKS at start");
        sale = createSale();
    }

    @AfterAll
    static void backToTheStacksOwnSignIn() {
        stack.seckill(STACK_OP, "restart", "service");
        provider.stop(0);
    }

    @Test
    void aPurchaseWithAnRs256TokenOfTheShopsProviderIsQueuedThroughTheEdge() {
        HttpJson.Response r = purchase(sign(RSA, shop(users.incrementAndGet()).build()));
        assertEquals(202, r.status(), r.body());
        assertEquals("QUEUED", r.code());
    }

    @Test
    void aPurchaseWithAnEs256TokenIsQueuedToo() {
        HttpJson.Response r = purchase(sign(EC, shop(users.incrementAndGet()).build()));
        assertEquals(202, r.status(), r.body());
    }

    @Test
    void aKeyTheProviderRotatesInMidRunIsTakenWithoutARestart() {
        RSAKey next = rsa("shop-rsa-2");
        served.set(List.of(RSA, EC, next));
        long user = users.incrementAndGet();
        String token = sign(next, shop(user).build());
        // Signed in once the service has fetched the set again (an unknown kid asks for it, at most once a second
        // here): "my order" answers 404 NO_ORDER instead of 401.
        Await.until(Duration.ofSeconds(30), () -> myOrder(token).status() == 404, "the rotated key to be taken");
        HttpJson.Response r = purchase(token);
        assertEquals(202, r.status(), r.body());
    }

    @Test
    void badTokensAre401WithTheirReasonThroughTheEdge() throws JOSEException {
        long user = users.incrementAndGet();
        Instant now = Instant.now();
        assertRefused("TOKEN_EXPIRED", sign(RSA, shop(user).issueTime(Date.from(now.minusSeconds(7200)))
                .expirationTime(Date.from(now.minusSeconds(3600))).build()));
        assertRefused("WRONG_ISSUER", sign(RSA, shop(user).issuer("https://evil.test").build()));
        assertRefused("WRONG_AUDIENCE", sign(EC, shop(user).audience("another-app").build()));
        assertRefused("UNKNOWN_KEY", sign(rsa("not-the-shops"), shop(user).build()));
        assertRefused("ALGORITHM_NOT_ALLOWED", new PlainJWT(shop(user).build()).serialize());
        // Alg confusion: HS256 "signed" with the provider's public key. The stack's HS256 secret is its token
        // secret, never a public key, so the signature does not hold.
        assertRefused("BAD_SIGNATURE", sign(JWSAlgorithm.HS256, RSA.getKeyID(),
                new MACSigner(RSA.toRSAPublicKey().getEncoded()), shop(user).build()));
        assertRefused("BAD_SIGNATURE", Jwts.withClaim(sign(RSA, shop(user).build()), "sub", Long.toString(user + 1)));
        assertRefused("MALFORMED", "not-a-jwt");
        assertRefused("TOKEN_MISSING", null);
    }

    @Test
    void theJwksFetchesAndTheRefusalsByReasonAreMetrics() {
        assertRefused("WRONG_ISSUER", sign(RSA, shop(users.incrementAndGet()).issuer("https://evil.test").build()));
        HttpJson.Response m = http.get(stack.adminUrl() + "/observe/metrics",
                "Authorization", HttpJson.bearer(stack.adminToken()));
        assertEquals(200, m.status());
        assertTrue(m.body().lines().anyMatch(l -> l.startsWith("seckill_jwks_fetches_total{outcome=\"ok\"")
                && !l.endsWith(" 0.0")), "JWKS fetches counted");
        assertTrue(m.body().lines().anyMatch(l -> l.startsWith("seckill_auth_refused_total{reason=\"WRONG_ISSUER\"")
                && !l.endsWith(" 0.0")), "refusals counted by reason");
    }

    @Test
    void aTokenOfNearly4KiBPassesTheEdgeAndOnePastTheBoundIsMalformed() {
        long user = users.incrementAndGet();
        // A provider's token with many claims (groups, profile): RS256 of 2048 bits is some 700 characters bare.
        String big = sign(RSA, shop(user).claim("profile", "x".repeat(2_400)).build());
        assertTrue(big.length() > 3_500 && big.length() <= 4_096, "length " + big.length());
        HttpJson.Response r = purchase(big);
        assertEquals(202, r.status(), r.body());
        String tooBig = sign(RSA, shop(user).claim("profile", "x".repeat(3_200)).build());
        assertTrue(tooBig.length() > 4_096, "length " + tooBig.length());
        assertRefused("MALFORMED", tooBig);
    }

    @Test
    void anHs256TokenWithTheSharedSecretIsQueuedForAShopWithoutAJwks() throws JOSEException {
        String token = sign(JWSAlgorithm.HS256, null, new MACSigner(stack.tokenSecret()),
                shop(users.incrementAndGet()).build());
        HttpJson.Response r = purchase(token);
        assertEquals(202, r.status(), r.body());
    }

    private static void assertRefused(String reason, String token) {
        HttpJson.Response r = purchase(token);
        assertEquals(401, r.status(), reason + ": " + r.body());
        assertEquals("UNAUTHENTICATED", r.code(), r.body());
        assertEquals(reason, r.json().path("reason").asText(), r.body());
    }

    private static HttpJson.Response purchase(String token) {
        String url = stack.edgeUrl() + "/api/sales/" + sale + "/purchase";
        return token == null ? http.post(url, null) : http.post(url, null, "Authorization", HttpJson.bearer(token));
    }

    private static HttpJson.Response myOrder(String token) {
        return http.get(stack.edgeUrl() + "/api/sales/" + sale + "/order", "Authorization", HttpJson.bearer(token));
    }

    private static JWTClaimsSet.Builder shop(long user) {
        Instant now = Instant.now();
        return new JWTClaimsSet.Builder().subject(Long.toString(user)).issuer(ISSUER).audience(AUDIENCE)
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(600)));
    }

    /** Open now, for an hour, with stock for every buyer of this test. */
    private static long createSale() {
        return new AdminSales(stack, http).sale("shop-sign-in-").priceCents(100).stock(100).create();
    }
}
