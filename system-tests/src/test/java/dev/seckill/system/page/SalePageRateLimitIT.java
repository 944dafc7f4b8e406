package dev.seckill.system.page;

import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sale page under the edge's per-IP purchase limit: it tells the shopper the shop is busy (not that they are
 * queued: a sale without a waiting room has no line), keeps the button off, and tries again by itself exactly
 * Retry-After seconds later, sending nothing in between.
 *
 * <p>The edge of this test allows 12 purchases a minute per client address (one every 5 s, so a refused one is
 * told Retry-After: 5) and a burst of one more. The browser sends no X-Forwarded-For and the edge trusts none, so
 * its bucket is 127.0.0.1's, the same as the test's own requests: two requests from the test empty it just before
 * the click, and the page's first attempt is refused.
 */
@Timeout(120)
class SalePageRateLimitIT {

    private static final int RETRY_AFTER = 5;
    private static final int BURST = 1;
    private static final Pattern PURCHASE_COUNTER =
            Pattern.compile("(?m)^seckill_edge_requests_total\\{route=\"purchase\",status=\"(\\d+)\"} (\\d+)$");

    private static PageEdge edge;

    @BeforeAll
    static void startEdge() {
        edge = PageEdge.start("rate-limit", Map.of("SECKILL_EDGE_RATE", "12r/m",
                "SECKILL_EDGE_BURST", Integer.toString(BURST)));
    }

    @AfterAll
    static void stopEdge() {
        if (edge != null) {
            edge.close();
        }
    }

    @Test
    void rateLimitedClickWaitsRetryAfterWithTheButtonOffThenSucceedsByItself() {
        Instant now = Instant.now();
        long saleId = PageSales.create("Queue phone", 29900, 2, now.minusSeconds(1), now.plus(Duration.ofMinutes(10)));
        try (Browser browser = new Browser()) {
            SalePage page = new SalePage(browser).open(edge.url(""), saleId);
            SalePage.signIn(browser, "carol");
            Await.until(SalePage.UI, () -> page.buy().isEnabled(), "the button on");

            HttpJson http = new HttpJson();
            for (int i = 0; i <= BURST; i++) {
                HttpJson.Response spent = http.post(edge.url("/api/sales/" + saleId + "/purchase"), null);
                assertEquals(401, spent.status(), "the test's own requests pass the limit: " + spent.body());
            }
            page.clickBuy();

            page.awaitOutcome("RETRYING", SalePage.UI);
            // Honest: the shopper is told the shop is busy and when the page tries again, not that anyone queued them.
            assertEquals("Busy: the shop is taking many orders right now. This page tries again for you in "
                    + RETRY_AFTER + " s.", page.statusText());
            assertFalse(page.statusText().toLowerCase(java.util.Locale.ROOT).contains("queue"), page.statusText());
            assertFalse(page.buy().isEnabled(), "the button is off while the page waits");
            browser.screenshot("rate-limit-1-busy-retrying");
            // A shopper clicking away meanwhile sends nothing: the button is off.
            for (int i = 0; i < 3; i++) {
                page.clickBuy();
            }
            assertEquals(1, page.purchases().size(), "no request while waiting: " + page.purchases());

            page.awaitOutcome("QUEUED", Duration.ofSeconds(RETRY_AFTER).plus(SalePage.UI));
            browser.screenshot("rate-limit-2-succeeded");

            List<Map<String, Object>> sent = page.purchases();
            assertEquals(2, sent.size(), "the refused attempt and one retry, nothing in between: " + sent);
            assertEquals(429L, sent.get(0).get("status"));
            assertEquals(Integer.toString(RETRY_AFTER), sent.get(0).get("retryAfter"));
            assertEquals(202L, sent.get(1).get("status"));
            double waited = SalePage.ms(sent.get(1).get("sentAt")) - SalePage.ms(sent.get(0).get("answeredAt"));
            assertTrue(waited >= RETRY_AFTER * 1000.0, "retried after " + waited + " ms, sooner than Retry-After");
            assertTrue(waited < RETRY_AFTER * 1000.0 + 3000, "retried only after " + waited + " ms");
            assertEquals(List.of("SENDING", "RETRYING", "SENDING", "QUEUED"), page.outcomes().subList(0, 4));

            // The edge saw the same: the test's requests, the refused one and the retry, no other purchase.
            assertEquals(Map.of("401", BURST + 1L, "429", 1L, "202", 1L), purchasesAtTheEdge());
            browser.assertNoConsoleErrors();
        }
    }

    /** Purchase requests the edge answered, by status. */
    private static Map<String, Long> purchasesAtTheEdge() {
        Map<String, Long> byStatus = new java.util.TreeMap<>();
        Matcher m = PURCHASE_COUNTER.matcher(edge.metrics());
        while (m.find()) {
            byStatus.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return byStatus;
    }
}
