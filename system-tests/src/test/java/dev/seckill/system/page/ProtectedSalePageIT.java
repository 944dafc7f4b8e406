package dev.seckill.system.page;

import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Protected sales in headless Chromium through the edge: the sale page buys a protected sale with one click, solving the
 * challenge in a Web Worker with a visible progress bar, and recovers from a path the service refuses. The first
 * test also reports the page's hashing rate on this machine (the basis of the default difficulty).
 */
@Timeout(180)
class ProtectedSalePageIT {

    private static final Duration LEAD = Duration.ofSeconds(8);
    /** Small enough for a loaded CI machine to solve in a blink; the default difficulty is exercised by the first test. */
    private static final int SMALL_BITS = 8;
    /** The default difficulty may take a few seconds on a slow, shared machine; the test asserts the path, not speed. */
    private static final Duration SOLVE = Duration.ofSeconds(60);

    /**
     * Counts the page's challenge fetches, and rewrites the path of the next purchase while window.__tamper is set
     * (one character changed: still the route's charset, so the edge passes it and the service judges it).
     */
    private static final String TAMPER = """
            if (window.__challenges !== undefined) { return; }
            window.__challenges = 0;
            window.__tamper = false;
            const inner = window.fetch;
            window.fetch = function (input, init) {
              let url = String(input && input.url ? input.url : input);
              if (/\\/challenge$/.test(url)) { window.__challenges += 1; }
              if (window.__tamper && /\\/purchase\\/[A-Za-z0-9_-]+$/.test(url)) {
                window.__tamper = false;
                url = url.slice(0, -1) + (url.endsWith('A') ? 'B' : 'A');
                return inner.call(this, url, init);
              }
              return inner.apply(this, arguments);
            };
            """;

    private final String edge = Stack.get().edgeUrl();

    @Test
    void aChallengeSaleIsBoughtWithOneClickAfterTheWorkerSolvesItsDefaultDifficulty() {
        try (Browser browser = new Browser()) {
            browser.open(edge + "/");
            SalePage.signIn(browser, "prudence");
            Instant startsAt = Instant.now().plus(LEAD).truncatedTo(ChronoUnit.MILLIS);
            long saleId = create("Guarded phone", startsAt, "challenge", null);
            SalePage page = new SalePage(browser).open(edge, saleId);
            browser.js(TAMPER);
            assertFalse(browser.byId("proof").isDisplayed(), "no check before the start");

            Await.until(LEAD.plus(SalePage.UI), () -> page.buy().isEnabled(), "the button to turn on at the start");
            Await.until(SOLVE, () -> "ready".equals(proofState(browser)), "the page to solve the challenge by itself");
            assertEquals(1L, ((Number) browser.js("return window.__challenges;")).longValue(), "one challenge");
            browser.screenshot("protected-1-ready");

            page.clickBuy();
            page.awaitOutcome("QUEUED", SalePage.UI);
            List<Map<String, Object>> sent = page.purchases();
            assertEquals(List.of(202L), page.answers(), "one click, one purchase: " + sent);
            assertTrue(String.valueOf(sent.getLast().get("url")).matches(".*/api/sales/" + saleId
                    + "/purchase/[A-Za-z0-9_-]{32}"), "bought through the path: " + sent);
            page.assertRetriesWaitedRetryAfter();
            browser.screenshot("protected-2-queued");

            // The basis of the default difficulty: hashes per second of this page's worker in this Chromium.
            long rate = Long.parseLong(browser.byId("proof").getDomAttribute("data-rate"));
            long tried = Long.parseLong(browser.byId("proof").getDomAttribute("data-tried"));
            System.out.printf("ProtectedSalePageIT: the page's worker hashed %,d SHA-256/s; it tried %,d nonces"
                    + " (%.2f s at that rate)%n", rate, tried, tried / (double) Math.max(1, rate));
            assertTrue(rate > 0, "the worker reports its rate");
            browser.assertNoConsoleErrors();
        }
    }

    @Test
    void aTamperedPathIsRefusedAndThePageBuysWithAFreshOneInTheSameClick() {
        try (Browser browser = new Browser()) {
            browser.open(edge + "/");
            SalePage.signIn(browser, "mallory");
            long saleId = create("Guarded lamp", Instant.now().minusSeconds(1), "challenge", SMALL_BITS);
            SalePage page = new SalePage(browser).open(edge, saleId);
            browser.js(TAMPER);
            Await.until(SOLVE, () -> "ready".equals(proofState(browser)), "the first path to be ready");
            // The page got its first path on load, before this hook counted: count from here.
            browser.js("window.__tamper = true; window.__challenges = 0;");

            page.clickBuy();
            page.awaitOutcome("QUEUED", SOLVE);
            assertEquals(List.of(403L, 202L), page.answers(), "the tampered path, then a fresh one: " + page.purchases());
            assertEquals(1L, ((Number) browser.js("return window.__challenges;")).longValue(),
                    "a fresh challenge solved for the fresh path");
            assertFalse(page.outcomes().contains("ERROR"), "the shopper saw no error: " + page.outcomes());
            browser.assertNoConsoleErrors();
        }
    }

    @Test
    void aPathSaleIsBoughtWithOneClickWithoutAnyChallenge() {
        try (Browser browser = new Browser()) {
            browser.open(edge + "/");
            SalePage.signIn(browser, "peggy");
            long saleId = create("Path-only kettle", Instant.now().minusSeconds(1), "path", null);
            SalePage page = new SalePage(browser).open(edge, saleId);
            browser.js(TAMPER);
            Await.until(SalePage.UI, () -> page.buy().isEnabled(), "the button");

            page.clickBuy();
            page.awaitOutcome("QUEUED", SalePage.UI);
            assertEquals(List.of(202L), page.answers(), "one click, one purchase: " + page.purchases());
            assertEquals(0L, ((Number) browser.js("return window.__challenges;")).longValue(), "no challenge");
            assertFalse(browser.byId("proof").isDisplayed(), "no check shown for a path sale");
            browser.assertNoConsoleErrors();
        }
    }

    private static String proofState(Browser browser) {
        return browser.byId("proof").getDomAttribute("data-state");
    }

    /** A protected sale of two units, running for ten minutes from {@code startsAt}; bits null for the default. */
    private static long create(String name, Instant startsAt, String protection, Integer bits) {
        AdminSales.Sale sale = new AdminSales(Stack.get(), new HttpJson()).named(name).priceCents(4900).stock(2)
                .startsAt(startsAt).endsAt(startsAt.plus(Duration.ofMinutes(10))).with("protection", protection);
        if (bits != null) {
            sale.with("challengeBits", bits);
        }
        return sale.create();
    }
}
