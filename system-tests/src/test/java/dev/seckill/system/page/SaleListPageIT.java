package dev.seckill.system.page;

import dev.seckill.testkit.Await;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sale list (index.html) and the ways into a sale page, in headless Chromium through the edge. */
@Timeout(60)
class SaleListPageIT {

    private final String edge = Stack.get().edgeUrl();

    @Test
    void listShowsEachSaleWithPriceStateAndCountdownAndLinksToItsPage() {
        String name = "List lamp " + System.nanoTime();
        Instant startsAt = Instant.now().plus(Duration.ofHours(1));
        long saleId = PageSales.create(name, 1234, 3, startsAt, startsAt.plus(Duration.ofHours(1)));
        try (Browser browser = new Browser()) {
            browser.open(edge + "/");
            WebElement item = Await.value(SalePage.UI, () -> browser.driver()
                    .findElements(By.cssSelector("li[data-sale-id='" + saleId + "']")).stream().findFirst()
                    .orElse(null), "sale " + saleId + " in the list");

            assertEquals("UPCOMING", item.getDomAttribute("data-state"));
            assertEquals(name, item.findElement(By.tagName("a")).getText());
            assertEquals("$12.34", item.findElement(By.className("price")).getText());
            assertEquals("Starting soon", item.findElement(By.className("badge")).getText());
            assertEquals("3 on offer", item.findElement(By.className("stock")).getText());
            String countdown = item.findElement(By.className("countdown")).getText();
            assertTrue(countdown.matches("Starts in (00:59:[0-5]\\d|01:00:00)"), countdown);
            assertEquals("Your name (demo sign-in, no password)",
                    browser.driver().findElement(By.cssSelector("label[for='signin-name']")).getText());
            browser.assertFitsPhoneWidth();
            browser.js("arguments[0].scrollIntoView({block: 'center'});", item);
            browser.screenshot("list-1-sales");

            item.findElement(By.tagName("a")).click();
            SalePage page = new SalePage(browser);
            Await.until(SalePage.UI, () -> name.equals(browser.text("sale-name")), "the sale's page");
            assertEquals(edge + SalePage.path(saleId), browser.driver().getCurrentUrl());
            assertEquals(name + " · Seckill", browser.driver().getTitle());
            assertEquals("UPCOMING", page.state());
            assertFalse(page.buy().isEnabled());
            assertEquals("Sign in above; the button turns on when the sale starts.", browser.text("buy-hint"));
            assertEquals("polite", browser.byId("status").getDomAttribute("aria-live"));
            browser.assertNoConsoleErrors();
        }
    }

    @Test
    void anUnknownSaleSaysThereIsNoSuchSale() {
        try (Browser browser = new Browser()) {
            browser.open(edge + SalePage.path(987_654_321L));
            Await.until(SalePage.UI, () -> browser.text("load-status").startsWith("There is no such sale"),
                    "the page to say there is no such sale");
            assertFalse(browser.byId("sale").isDisplayed());
            browser.screenshot("sale-0-unknown");
            browser.assertNoConsoleErrors();
        }
    }

    @Test
    void aSaleThatEndsTurnsTheButtonOff() {
        try (Browser browser = new Browser()) {
            Instant now = Instant.now();
            // Long enough for the browser to start, load the page and sign in on a busy machine (over 10 s seen).
            Instant ends = now.plusSeconds(20);
            long saleId = PageSales.create("Short sale", 500, 5, now.minusSeconds(1), ends);
            SalePage page = new SalePage(browser).open(edge, saleId);
            SalePage.signIn(browser, "dave");
            Await.until(SalePage.UI, () -> page.buy().isEnabled(), "the button on while the sale runs");

            Await.until(Duration.between(Instant.now(), ends).plus(SalePage.UI), () -> "ENDED".equals(page.state()),
                    "the sale to end");
            assertFalse(page.buy().isEnabled());
            assertEquals("This sale has ended", page.countdown());
            assertEquals("Ended", browser.text("sale-state"));
            browser.screenshot("sale-9-ended");
            browser.assertNoConsoleErrors();
        }
    }
}
