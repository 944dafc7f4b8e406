package dev.seckill.system.page;

import dev.seckill.testkit.Await;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sale pages in headless Chromium against the whole stack through its edge: what a shopper sees from
 * the countdown to the confirmed order, what the next shoppers see, and the sale list. Screenshots of each state go
 * to system-tests/target/screenshots/.
 */
@Timeout(180)
class SalePageIT {

    /** The writer confirms an order once it has written it; allow for a slow, shared machine. */
    private static final Duration CONFIRMATION = Duration.ofSeconds(60);
    private static final Duration LEAD = Duration.ofSeconds(8);
    /**
     * The page reads an active sale every 5-6 s, and the edge may answer a read from its previous copy while it
     * refreshes the copy in the background: a page learns the new stock within two reads.
     */
    private static final Duration SALE_REFRESH = Duration.ofSeconds(15);

    private final String edge = Stack.get().edgeUrl();

    @Test
    void buyButtonWaitsForTheStartThenOneClickIsQueuedConfirmedAndASecondClickIsAlreadyPurchased() {
        try (Browser browser = new Browser()) {
            browser.open(edge + "/");
            SalePage.signIn(browser, "alice");
            Instant startsAt = Instant.now().plus(LEAD).truncatedTo(ChronoUnit.MILLIS);
            long saleId = PageSales.create("Countdown phone", 19900, 2, startsAt, startsAt.plus(Duration.ofMinutes(10)));
            SalePage page = new SalePage(browser).open(edge, saleId);

            assertEquals("UPCOMING", page.state());
            assertTrue(page.countdown().matches("Starts in 00:00:0[1-8]"), page.countdown());
            assertFalse(page.buy().isEnabled(), "the button is off before the start");
            assertEquals("Buy now", page.buy().getText());
            assertEquals("Countdown phone", browser.text("sale-name"));
            assertEquals("$199.00", browser.text("sale-price"));
            assertEquals("2 on offer", browser.text("sale-stock"));
            browser.assertFitsPhoneWidth();
            browser.screenshot("sale-1-countdown");

            Await.until(LEAD.plus(SalePage.UI), () -> page.buy().isEnabled(), "the button to turn on at the start");
            assertFalse(Instant.now().isBefore(startsAt), "the button turned on before the server's start time");
            assertEquals("ACTIVE", page.state());
            assertTrue(page.countdown().startsWith("Ends in 00:"), page.countdown());
            browser.screenshot("sale-2-active");

            page.clickBuy();
            page.awaitOutcome("QUEUED", SalePage.UI);
            assertTrue(page.statusText().startsWith("You got one!"), page.statusText());
            assertFalse(page.buy().isEnabled(), "no second purchase while the order is being recorded");
            String orderId = page.orderId();
            assertTrue(orderId.matches("\\d+"), orderId);
            browser.screenshot("sale-3-queued");

            page.awaitOutcome("CONFIRMED", CONFIRMATION);
            assertEquals("CONFIRMED", page.orderStatus());
            assertEquals(orderId, page.orderId());
            assertEquals("Your order is confirmed. Please pay before the time runs out.", page.statusText());
            assertTrue(page.pay().isDisplayed(), "a confirmed order can be paid");
            browser.screenshot("sale-4-confirmed");

            Await.until(SalePage.UI, () -> page.buy().isEnabled(), "the button to come back once the order is known");
            page.clickBuy();
            page.awaitOutcome("ALREADY_PURCHASED", SalePage.UI);
            Await.until(SalePage.UI, () -> "CONFIRMED".equals(page.orderStatus()), "the existing order, confirmed");
            assertEquals(orderId, page.orderId(), "the existing order is shown");
            assertTrue(page.statusText().startsWith("You have already bought this item"), page.statusText());
            browser.screenshot("sale-5-already-purchased");

            assertEquals(List.of(202L, 409L), page.answers(), "two clicks, one purchase each: " + page.purchases());
            page.assertRetriesWaitedRetryAfter();
            assertEquals(List.of("QUEUED", "CONFIRMED", "ALREADY_PURCHASED"), page.results());
            browser.assertNoConsoleErrors();
        }
    }

    @Test
    void theNextShopperSeesSoldOutAndTheBuyerComingBackStillSeesTheOrder() {
        try (Browser alice = new Browser(); Browser bob = new Browser()) {
            Instant now = Instant.now();
            long saleId = PageSales.create("Last one", 4999, 1, now.minusSeconds(1), now.plus(Duration.ofMinutes(10)));
            SalePage alicePage = new SalePage(alice).open(edge, saleId);
            SalePage.signIn(alice, "alice");
            SalePage bobPage = new SalePage(bob).open(edge, saleId);
            SalePage.signIn(bob, "bob");
            Await.until(SalePage.UI, () -> alicePage.buy().isEnabled() && bobPage.buy().isEnabled(),
                    "both buttons on");

            alicePage.clickBuy();
            alicePage.awaitOutcome("QUEUED", SalePage.UI);
            String orderId = alicePage.orderId();

            // Bob's page may not know yet that the last unit is gone (its sale read is a few seconds old at most):
            // his click is then answered SOLD_OUT. Had it learnt it already, the button is off and says so.
            bobPage.clickBuy();
            Await.until(SalePage.UI, () -> "SOLD_OUT".equals(bobPage.outcome())
                    || ("SOLD_OUT".equals(bobPage.state()) && !bobPage.buy().isEnabled()), "bob to see sold out");
            assertFalse(bobPage.buy().isEnabled());
            if ("SOLD_OUT".equals(bobPage.outcome())) {
                assertEquals("Sorry, it is sold out: every unit has been sold.", bobPage.statusText());
                assertEquals(List.of(410L), bobPage.answers(), "one click, one purchase: " + bobPage.purchases());
                bobPage.assertRetriesWaitedRetryAfter();
            } else {
                assertEquals(List.of(), bobPage.purchases(), "a click on the off button sends nothing");
            }
            bob.screenshot("sale-6-sold-out-answer");

            // A fresh visit says sold out by itself: at once, or at its next sale read if the edge's micro-cache
            // still held the old stock.
            bobPage.reload();
            Await.until(SALE_REFRESH, () -> "SOLD_OUT".equals(bobPage.state()), "a fresh page to say sold out");
            assertFalse(bobPage.buy().isEnabled(), "nothing to buy");
            assertEquals("All 1 sold", bob.text("sale-stock"));
            assertEquals("Sold out", bob.text("sale-state"));
            bob.screenshot("sale-7-sold-out-page");

            alicePage.reload();
            alicePage.awaitOutcome("YOURS", SalePage.UI);
            assertEquals(orderId, alicePage.orderId(), "the buyer still sees her order on the sold-out page");
            alice.screenshot("sale-8-buyer-returns");

            alice.assertNoConsoleErrors();
            bob.assertNoConsoleErrors();
        }
    }
}
