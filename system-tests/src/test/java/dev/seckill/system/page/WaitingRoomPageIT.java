package dev.seckill.system.page;

import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Waiting rooms on the sale page (docs/waiting-room.md) in headless Chromium through the stack's edge: shoppers join
 * the line, see the draw, their place and the people ahead, are admitted in turn and buy; a turn left unused lapses
 * to the next in line; a shopper behind the sold stock is told of the waiting list, then that it is sold out. Every
 * check is on what the shopper sees. Screenshots go to system-tests/target/screenshots/.
 */
@Timeout(240)
class WaitingRoomPageIT {

    /** The writer confirms an order once it has written it; allow for a slow, shared machine. */
    private static final Duration CONFIRMATION = Duration.ofSeconds(60);
    private static final Duration LEAD = Duration.ofSeconds(10);
    private static final int ADMIT_SECONDS = 10;
    /**
     * A turn lapses ADMIT_SECONDS after it was given; the line hands the unit on at its next update (about a second)
     * and the next page hears of it at its next poll (a second or two when it is next in line).
     */
    private static final Duration LAPSE = Duration.ofSeconds(ADMIT_SECONDS + 20);
    /** A waiting list is polled every 10 s; the line sees a payment at its next update. */
    private static final Duration WAITLIST_POLL = Duration.ofSeconds(30);
    private static final Duration SOLVE = Duration.ofSeconds(60);

    private static final String DRAW = "You are in the line. Places are drawn at random when the sale starts, at ";
    private static final String TURN = "It is your turn! Buy before ";
    private static final String LAPSED = "Your turn came and went: the time to buy ran out, and the unit went to the"
            + " next in line.";
    private static final String SOLD_OUT = "Sold out: every unit has been sold, and none can come back.";

    private final String edge = Stack.get().edgeUrl();

    @Test
    void thePreQueueIsDrawnTheFirstTurnLapsesTheNextBuysAndTheShopperBehindEndsOnTheWaitingListThenSoldOut() {
        try (Browser one = new Browser(); Browser two = new Browser(); Browser late = new Browser()) {
            Instant startsAt = Instant.now().plus(LEAD).truncatedTo(ChronoUnit.MILLIS);
            long saleId = PageSales.withLine("Lined-up phone", 19900, 1, startsAt,
                    startsAt.plus(Duration.ofMinutes(10)), 60, ADMIT_SECONDS).create();
            SalePage onePage = signedInPage(one, "wendy-early", saleId);
            SalePage twoPage = signedInPage(two, "walter-early", saleId);

            // Both join the pre-queue at once: nobody has a place before the draw, whoever came first.
            for (SalePage page : List.of(onePage, twoPage)) {
                page.awaitLine(DRAW, SalePage.UI);
                assertTrue(page.lineTimer().matches("Places are drawn in 00:00:(0\\d|10)"), page.lineTimer());
                assertTrue(page.lineNote().startsWith("Everyone who joins before then has the same chance"),
                        page.lineNote());
                assertEquals("", page.linePosition(), "no place before the draw");
                assertFalse(page.buy().isEnabled(), "nothing to buy before the turn");
                assertEquals("The button turns on when it is your turn in the line.", page.hint());
            }
            one.assertFitsPhoneWidth();
            one.screenshot("line-1-prequeue");

            // The draw: one of the two is let in, the other is next in line.
            Await.until(LEAD.plus(SalePage.UI), () -> (turn(onePage) && second(twoPage))
                    || (turn(twoPage) && second(onePage)), "one page admitted, the other second in line (one: "
                    + onePage.lineStatus() + " / two: " + twoPage.lineStatus() + ")");
            assertFalse(Instant.now().isBefore(startsAt), "a place was given before the draw");
            SalePage first = turn(onePage) ? onePage : twoPage;
            SalePage next = first == onePage ? twoPage : onePage;
            Browser firstBrowser = first == onePage ? one : two;
            Browser nextBrowser = first == onePage ? two : one;
            assertTrue(first.buy().isEnabled(), "the admitted shopper can buy");
            assertTrue(first.lineTimer().matches("Your turn ends in 00:00:(0\\d|10)"), first.lineTimer());
            assertTrue(next.linePosition().matches("(about )?2"), next.linePosition());
            assertEquals("nobody: you are next", next.lineAhead());
            assertFalse(next.lineEta().isEmpty(), "an estimated wait is shown");
            assertEquals("Everyone in front of you has been let in.", next.lineProgress());
            assertFalse(next.buy().isEnabled(), "the second in line waits");
            firstBrowser.screenshot("line-2-admitted");
            nextBrowser.screenshot("line-3-second-in-line");

            // A shopper arriving after the draw goes behind the whole pre-queue.
            SalePage latePage = signedInPage(late, "wilma-late", saleId);
            latePage.awaitLine("You are number 3 in the line.", SalePage.UI);
            assertEquals("1 person", latePage.lineAhead());
            assertEquals("The line has moved 50 % of the way to you.", latePage.lineProgress());
            // A reload keeps the place.
            latePage.reload();
            latePage.awaitLine("You are number 3 in the line.", SalePage.UI);
            late.screenshot("line-4-behind-the-pre-queue");

            // The first lets the turn pass: it lapses, and the unit goes to the next in line.
            first.awaitLine(LAPSED, LAPSE);
            assertFalse(first.buy().isEnabled(), "a lapsed turn cannot buy");
            firstBrowser.screenshot("line-5-lapsed");
            next.awaitLine(TURN, SalePage.UI);
            assertTrue(next.buy().isEnabled());
            nextBrowser.screenshot("line-6-next-admitted");

            next.clickBuy();
            next.awaitOutcome("QUEUED", SalePage.UI);
            assertTrue(next.statusText().startsWith("You got one!"), next.statusText());
            assertTrue(next.orderId().matches("\\d+"), next.orderId());
            assertFalse(next.lineShown(), "the order replaces the waiting room");
            assertEquals(List.of(202L), next.answers(), "one click, one purchase: " + next.purchases());

            // The last unit is sold but not paid: the shopper behind waits on the waiting list.
            latePage.awaitLine("Sold out for now, but 1 unit may come back if not paid for by ", WAITLIST_POLL);
            assertTrue(latePage.lineStatus().endsWith("You are number 3 on the waiting list."), latePage.lineStatus());
            assertEquals("nobody: you are next", latePage.lineAhead());
            assertEquals("Sold out for now: you are on the waiting list.", latePage.hint());
            assertFalse(latePage.buy().isEnabled());
            late.screenshot("line-7-waiting-list");

            // Paid: no unit can come back, and the waiting list says sold out.
            next.awaitOrderStatus("CONFIRMED", CONFIRMATION);
            next.pay().click();
            next.awaitOrderStatus("PAID", SalePage.UI);
            latePage.awaitLine(SOLD_OUT, WAITLIST_POLL);
            assertEquals("Sold out", late.text("sale-state"));
            assertFalse(latePage.buy().isEnabled());
            late.screenshot("line-8-sold-out");

            assertEquals(LAPSED, first.lineStatus(), "the lapsed shopper is told so, and nothing else");
            assertEquals(List.of(), first.purchases(), "the lapsed shopper never bought");
            one.assertNoConsoleErrors();
            two.assertNoConsoleErrors();
            late.assertNoConsoleErrors();
        }
    }

    @Test
    void beforeTheLineOpensThePageCountsDownToTheOpeningThenJoinsByItselfAndBuysAtTheDraw() {
        try (Browser browser = new Browser()) {
            // The line opens 10 s from now: time to open the page and sign in before it does.
            Instant startsAt = Instant.now().plus(Duration.ofSeconds(14)).truncatedTo(ChronoUnit.MILLIS);
            int prequeue = 4;
            Instant opensAt = startsAt.minusSeconds(prequeue);
            long saleId = PageSales.withLine("Opening lamp", 4900, 1, startsAt,
                    startsAt.plus(Duration.ofMinutes(10)), prequeue, ADMIT_SECONDS).create();
            SalePage page = new SalePage(browser).open(edge, saleId);

            // Signed out: the room's rules, and what to do.
            Await.until(SalePage.UI, page::lineShown, "the waiting room panel");
            assertTrue(page.lineStatus().startsWith("This sale has a waiting room. The line opens at "),
                    page.lineStatus());
            assertEquals("Sign in above to join the line.", page.lineNote());
            assertEquals("Sign in above to join the line.", page.hint());
            browser.screenshot("line-opening-1-signed-out");

            SalePage.signIn(browser, "olive-opens");
            page.awaitLine("The line opens at ", SalePage.UI);
            assertTrue(page.lineTimer().matches("The line opens in 00:00:(0[1-9]|10)"), page.lineTimer());
            assertTrue(page.lineNote().startsWith("Keep this page open: it joins the line for you when it opens."),
                    page.lineNote());
            browser.screenshot("line-opening-2-countdown");

            page.awaitLine(DRAW, Duration.ofSeconds(10).plus(SalePage.UI));
            assertFalse(Instant.now().isBefore(opensAt), "joined before the line opened");
            browser.screenshot("line-opening-3-joined");

            page.awaitLine(TURN, Duration.ofSeconds(prequeue).plus(SalePage.UI));
            assertTrue(page.buy().isEnabled());
            page.clickBuy();
            page.awaitOutcome("QUEUED", SalePage.UI);
            assertEquals(List.of(202L), page.answers(), "one click, one purchase: " + page.purchases());
            page.awaitOrderStatus("CONFIRMED", CONFIRMATION);
            browser.screenshot("line-opening-4-bought");
            browser.assertNoConsoleErrors();

            // The sale list says the sale has a waiting room (the list is read every ~5 s).
            browser.open(edge + "/");
            String card = "li[data-sale-id='" + saleId + "'] .room";
            Await.until(SalePage.UI, () -> !browser.driver().findElements(By.cssSelector(card)).isEmpty(),
                    "the sale in the list");
            assertEquals("Waiting room: the line opens 4 s before the start, and places in it are drawn at random.",
                    browser.driver().findElement(By.cssSelector(card)).getText());
        }
    }

    @Test
    void aChallengeSaleIsSolvedWhileTheShopperWaitsSoTheClickWhenAdmittedBuysAtOnce() {
        try (Browser browser = new Browser()) {
            Instant now = Instant.now();
            long saleId = PageSales.withLine("Guarded queue kettle", 3900, 1, now.minusSeconds(1),
                    now.plus(Duration.ofMinutes(10)), 60, ADMIT_SECONDS).with("protection", "challenge")
                    .with("challengeBits", 8).create();
            // Someone else is first in line (and lets the turn lapse): the page waits behind them.
            HttpJson.Response ahead = join(saleId, "ahead-of-quentin");
            assertEquals("ADMITTED", ahead.code(), ahead.body());

            SalePage page = signedInPage(browser, "quentin-queues", saleId);
            page.awaitLine("You are number 2 in the line.", SalePage.UI);
            assertEquals("nobody: you are next", page.lineAhead());
            // Next in line: the check is done while waiting.
            Await.until(SOLVE, () -> "ready".equals(browser.byId("proof").getDomAttribute("data-state")),
                    "the check to be solved while waiting (line: " + page.lineStatus() + ")");
            assertEquals("Ready: the check is done.", browser.text("proof-text"));
            assertTrue(page.lineStatus().startsWith("You are number 2 in the line."), "still waiting: "
                    + page.lineStatus());
            assertFalse(page.buy().isEnabled());
            browser.screenshot("line-challenge-1-ready-while-waiting");

            page.awaitLine(TURN, LAPSE);
            assertEquals("ready", browser.byId("proof").getDomAttribute("data-state"), "no new check at the turn");
            page.clickBuy();
            page.awaitOutcome("QUEUED", SalePage.UI);
            List<Map<String, Object>> sent = page.purchases();
            assertEquals(List.of(202L), page.answers(), "one click, one purchase: " + sent);
            assertTrue(String.valueOf(sent.getLast().get("url")).matches(".*/api/sales/" + saleId
                    + "/purchase/[A-Za-z0-9_-]{32}"), "bought through the path: " + sent);
            browser.screenshot("line-challenge-2-bought");
            browser.assertNoConsoleErrors();
        }
    }

    private SalePage signedInPage(Browser browser, String name, long saleId) {
        browser.open(edge + "/");
        SalePage.signIn(browser, name);
        return new SalePage(browser).open(edge, saleId);
    }

    private static boolean turn(SalePage page) {
        return page.lineStatus().startsWith(TURN);
    }

    /** Second in the drawn pre-queue (a place the edge estimates from the ticket, so "about"). */
    private static boolean second(SalePage page) {
        return page.lineStatus().matches("You are (about )?number 2 in the line\\.");
    }

    /** A shopper who is not a page: signs in and joins the line through the edge. */
    private HttpJson.Response join(long saleId, String name) {
        HttpJson http = new HttpJson();
        HttpJson.Response login = http.post(edge + "/api/login", "{\"name\":\"" + name + "\"}",
                "Content-Type", "application/json");
        assertEquals(200, login.status(), login.body());
        return http.post(edge + "/api/sales/" + saleId + "/line", null,
                "Authorization", HttpJson.bearer(login.json().path("token").asText()));
    }
}
