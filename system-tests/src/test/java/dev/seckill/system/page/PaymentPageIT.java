package dev.seckill.system.page;

import dev.seckill.testkit.Await;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Paying on the sale page in headless Chromium through the stack's edge: a winner pays within the
 * window and sees PAID, on any device; a short window lapses, the page says EXPIRED, the unit comes back and the
 * next shopper buys it. Screenshots go to system-tests/target/screenshots/.
 */
@Timeout(240)
class PaymentPageIT {

    /** The writer confirms an order once it has written it; allow for a slow, shared machine. */
    private static final Duration CONFIRMATION = Duration.ofSeconds(60);
    /**
     * A sold-out page reads the sale every 10-12 s, and the edge may answer one read from the copy it is
     * refreshing: a page learns of a returned unit within two reads.
     */
    private static final Duration SALE_REFRESH = Duration.ofSeconds(30);

    private final String edge = Stack.get().edgeUrl();

    @Test
    void aWinnerPaysWithinTheWindowAndSeesTheOrderPaidOnAnotherDeviceToo() {
        try (Browser phone = new Browser(); Browser laptop = new Browser()) {
            Instant now = Instant.now();
            long saleId = PageSales.create("Pay me phone", 19900, 3, now.minusSeconds(1), now.plus(Duration.ofMinutes(10)), 120);
            SalePage page = new SalePage(phone).open(edge, saleId);
            SalePage.signIn(phone, "payer");
            Await.until(SalePage.UI, () -> page.buy().isEnabled(), "the buy button");

            page.clickBuy();
            page.awaitOutcome("QUEUED", SalePage.UI);
            assertFalse(page.pay().isDisplayed(), "nothing to pay before the order is recorded");
            page.awaitOrderStatus("CONFIRMED", CONFIRMATION);
            assertTrue(page.pay().isDisplayed() && page.pay().isEnabled(), "the pay button");
            assertTrue(page.payCountdown().matches("Pay within 00:0[12]:\\d\\d"), page.payCountdown());
            assertFalse(page.payBy().isEmpty());
            phone.assertFitsPhoneWidth();
            phone.screenshot("pay-1-confirmed");

            // The same shopper on another device: the order is found on the server, not in this tab.
            SalePage other = new SalePage(laptop).open(edge, saleId);
            SalePage.signIn(laptop, "payer");
            other.awaitOrderStatus("CONFIRMED", SalePage.UI);
            assertEquals(page.orderId(), other.orderId());
            assertEquals("YOURS", other.outcome());

            page.pay().click();
            page.awaitOrderStatus("PAID", SalePage.UI);
            assertEquals("PAID", page.payOutcome());
            assertEquals("Paid. Thank you!", page.statusText());
            assertFalse(page.pay().isDisplayed(), "nothing left to pay");
            phone.screenshot("pay-2-paid");

            laptop.reload();
            other.reload();
            other.awaitOrderStatus("PAID", SalePage.UI);
            assertEquals("You bought this item and it is paid. Thank you!", other.statusText());
            laptop.screenshot("pay-3-paid-elsewhere");

            assertEquals(List.of(202L), page.answers(), "one purchase");
            phone.assertNoConsoleErrors();
            laptop.assertNoConsoleErrors();
        }
    }

    @Test
    void anUnpaidOrderLapsesItsUnitComesBackAndTheNextShopperBuysIt() {
        try (Browser alice = new Browser(); Browser bob = new Browser()) {
            Instant now = Instant.now();
            long saleId = PageSales.create("Lapsing phone", 9900, 1, now.minusSeconds(1), now.plus(Duration.ofMinutes(10)), 6);
            SalePage alicePage = new SalePage(alice).open(edge, saleId);
            SalePage.signIn(alice, "alice-lapses");
            Await.until(SalePage.UI, () -> alicePage.buy().isEnabled(), "alice's buy button");
            alicePage.clickBuy();
            alicePage.awaitOrderStatus("CONFIRMED", CONFIRMATION);
            alice.screenshot("lapse-1-confirmed");

            SalePage bobPage = new SalePage(bob).open(edge, saleId);
            SalePage.signIn(bob, "bob-waits");
            Await.until(SALE_REFRESH, () -> "SOLD_OUT".equals(bobPage.state()) || "SOLD_OUT".equals(bobPage.outcome())
                    || bobPage.buy().isEnabled(), "bob's page to know the sale");
            if (bobPage.buy().isEnabled()) {
                bobPage.clickBuy();
                bobPage.awaitOutcome("SOLD_OUT", SalePage.UI);
            }
            assertTrue(bobPage.orderStatus() == null, "bob holds nothing");
            bob.screenshot("lapse-2-sold-out");

            // Alice lets the window pass: her page counts down, then says the order expired.
            alicePage.awaitOrderStatus("EXPIRED", CONFIRMATION);
            assertEquals("EXPIRED", alicePage.outcome());
            assertFalse(alicePage.pay().isDisplayed());
            alice.screenshot("lapse-3-expired");

            // The unit is back on sale: bob's page turns its button on by itself, and his click wins it.
            Await.until(SALE_REFRESH, () -> bobPage.buy().isEnabled(), "bob's button to come back with the unit");
            bobPage.clickBuy();
            bobPage.awaitOrderStatus("CONFIRMED", CONFIRMATION);
            bobPage.pay().click();
            bobPage.awaitOrderStatus("PAID", SalePage.UI);
            bob.screenshot("lapse-4-resold-and-paid");

            alice.assertNoConsoleErrors();
            bob.assertNoConsoleErrors();
        }
    }
}
