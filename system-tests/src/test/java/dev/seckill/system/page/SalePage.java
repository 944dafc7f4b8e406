package dev.seckill.system.page;

import dev.seckill.testkit.Await;
import org.openqa.selenium.WebElement;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sale page (and the sign-in in every page's header) as a test sees it: stable ids, the outcome code the page
 * writes to data-outcome, and recorders the test installs in the page to see what it does over time.
 */
final class SalePage {

    static final Duration UI = Duration.ofSeconds(10);

    /**
     * Installed by the test after each load: wraps window.fetch (the page calls it by name, so it goes through the
     * wrapper) and records every purchase request (on either route: a protected sale's carries its path) with its URL and the time it was sent and answered on the page's monotonic
     * clock; a MutationObserver records each outcome the status line shows. Neither changes what the page does.
     */
    private static final String RECORDERS = """
            if (window.__purchases) { return; }
            window.__purchases = [];
            window.__outcomes = [];
            const original = window.fetch;
            window.fetch = function (input, init) {
              const url = String(input && input.url ? input.url : input);
              const method = (init && init.method) || 'GET';
              const promise = original.apply(this, arguments);
              if (method === 'POST' && /\\/purchase(?:\\/[A-Za-z0-9_-]+)?$/.test(url)) {
                const record = { url: url, sentAt: performance.now(), answeredAt: null, status: null, retryAfter: null };
                window.__purchases.push(record);
                promise.then(function (r) {
                  record.answeredAt = performance.now();
                  record.status = r.status;
                  record.retryAfter = r.headers.get('Retry-After');
                }, function () {
                  record.answeredAt = performance.now();
                  record.status = -1;
                });
              }
              return promise;
            };
            const status = document.getElementById('status');
            new MutationObserver(function () {
              const o = status.dataset.outcome || '';
              if (window.__outcomes[window.__outcomes.length - 1] !== o) { window.__outcomes.push(o); }
            }).observe(status, { attributes: true, attributeFilter: ['data-outcome'] });
            """;

    private final Browser browser;

    SalePage(Browser browser) {
        this.browser = browser;
    }

    static String path(long saleId) {
        return "/sale.html?id=" + saleId;
    }

    /** Opens the sale page and waits until the sale is shown; then installs the recorders. */
    SalePage open(String baseUrl, long saleId) {
        browser.open(baseUrl + path(saleId));
        return shown();
    }

    /** Reloads (a shopper coming back: same tab, same session) and waits until the sale is shown again. */
    SalePage reload() {
        browser.reload();
        return shown();
    }

    private SalePage shown() {
        Await.until(UI, () -> browser.byId("sale").isDisplayed() && state() != null, "the sale to be shown");
        browser.js(RECORDERS);
        return this;
    }

    /** Signs in through the header form (any page) and waits until the page says who is signed in. */
    static void signIn(Browser browser, String name) {
        WebElement input = browser.byId("signin-name");
        Await.until(UI, input::isDisplayed, "the sign-in form");
        input.sendKeys(name);
        browser.byId("signin-submit").click();
        Await.until(UI, () -> name.equals(browser.text("whoami-name")), "signed in as " + name);
    }

    WebElement buy() {
        return browser.byId("buy");
    }

    void clickBuy() {
        buy().click();
    }

    /** The sale's state as the page shows it (UPCOMING, ACTIVE, SOLD_OUT, ENDED). */
    String state() {
        return browser.byId("sale").getDomAttribute("data-state");
    }

    /** The code of the last purchase outcome shown (QUEUED, CONFIRMED, RETRYING, SOLD_OUT, ...), or null. */
    String outcome() {
        return browser.byId("status").getDomAttribute("data-outcome");
    }

    String statusText() {
        return browser.text("status");
    }

    /** The words under the buy button. */
    String hint() {
        return browser.text("buy-hint");
    }

    String countdown() {
        return browser.text("countdown");
    }

    String orderId() {
        return browser.text("order-id");
    }

    /** The order's status as shown (QUEUED, CONFIRMED), or null while the order panel is hidden. */
    String orderStatus() {
        WebElement order = browser.byId("order");
        return order.isDisplayed() ? browser.byId("order-status").getDomAttribute("data-status") : null;
    }

    /** The order's payBy as the page holds it (ISO-8601), or "" before the order is confirmed. */
    String payBy() {
        return browser.byId("order").getDomAttribute("data-pay-by");
    }

    /** The pay button, shown while the order is CONFIRMED. */
    WebElement pay() {
        return browser.byId("pay");
    }

    /** The countdown to payBy, e.g. "Pay within 00:01:59", or "" when hidden. */
    String payCountdown() {
        return browser.text("pay-countdown");
    }

    /** The code of the last payment outcome shown (PAYING, PAID, EXPIRED, PAYMENT_DECLINED, ...), or null. */
    String payOutcome() {
        return browser.byId("pay-status").getDomAttribute("data-outcome");
    }

    // ---- the waiting room panel (shown for a sale with a waiting room while the shopper holds no order)

    boolean lineShown() {
        return browser.byId("line").isDisplayed();
    }

    /** The panel's headline, e.g. "You are in the line: number 2.", or "" when the panel is hidden. */
    String lineStatus() {
        return browser.text("line-status");
    }

    /** The panel's countdown, e.g. "Places are drawn in 00:00:05", or "". */
    String lineTimer() {
        return browser.text("line-timer");
    }

    String lineNote() {
        return browser.text("line-note");
    }

    /** The place as shown ("2", "about 1,200"), or "" while no place is shown. */
    String linePosition() {
        return browser.text("line-position");
    }

    /** The people ahead as shown ("1 person", "nobody: you are next"), or "". */
    String lineAhead() {
        return browser.text("line-ahead");
    }

    /** The estimated wait as shown ("about 3 min", "less than a minute"), or "". */
    String lineEta() {
        return browser.text("line-eta");
    }

    /** The progress bar's words ("The line has moved 50 % of the way to you."), or "". */
    String lineProgress() {
        return browser.text("line-bar-text");
    }

    /** Waits until the panel's headline starts with {@code prefix}. */
    void awaitLine(String prefix, Duration timeout) {
        Await.until(timeout, () -> lineStatus().startsWith(prefix), "the waiting room to say \"" + prefix
                + "...\" (it says: " + safeLine() + ")");
    }

    private String safeLine() {
        try {
            return lineStatus() + " / " + lineTimer() + " / " + lineNote();
        } catch (RuntimeException e) {
            return "unreadable: " + e.getMessage();
        }
    }

    /** Waits until the order panel shows this status (QUEUED, CONFIRMED, PAID, EXPIRED). */
    void awaitOrderStatus(String status, Duration timeout) {
        Await.until(timeout, () -> status.equals(orderStatus()), "order status " + status + " (shown: "
                + orderStatus() + ", status line: " + safeStatus() + ")");
    }

    void awaitOutcome(String code, Duration timeout) {
        Await.until(timeout, () -> code.equals(outcome()), "outcome " + code + " (status line: "
                + safeStatus() + ")");
    }

    /** The purchase requests the page sent since it was (re)loaded: sentAt, answeredAt (ms), status, retryAfter. */
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> purchases() {
        return (List<Map<String, Object>>) browser.js("return window.__purchases;");
    }

    /**
     * The statuses of the purchase requests since the page was (re)loaded that were not "wait and retry" (429, 503):
     * what the shopper's clicks came to. Those refusals can happen on any run, since the edge limits per client
     * address and every local client is 127.0.0.1; {@link #assertRetriesWaitedRetryAfter()} checks them.
     */
    List<Long> answers() {
        return purchases().stream().map(p -> ((Number) p.get("status")).longValue())
                .filter(status -> status != 429 && status != 503).toList();
    }

    /** Fails unless the request after each 429 or 503 was sent no sooner than that answer's Retry-After. */
    void assertRetriesWaitedRetryAfter() {
        List<Map<String, Object>> sent = purchases();
        for (int i = 0; i + 1 < sent.size(); i++) {
            long status = ((Number) sent.get(i).get("status")).longValue();
            if (status == 429 || status == 503) {
                double waited = ms(sent.get(i + 1).get("sentAt")) - ms(sent.get(i).get("answeredAt"));
                double retryAfter = Double.parseDouble((String) sent.get(i).get("retryAfter")) * 1000;
                assertTrue(waited >= retryAfter, "retried " + waited + " ms after a " + status + " with Retry-After "
                        + retryAfter + " ms: " + sent);
            }
        }
    }

    /** Outcomes the status line showed, without the transient ones (sending, waiting to retry). */
    List<String> results() {
        return outcomes().stream().filter(o -> !o.equals("SENDING") && !o.equals("RETRYING")).toList();
    }

    static double ms(Object n) {
        return ((Number) n).doubleValue();
    }

    /** Every outcome the status line showed since the page was (re)loaded, in order. */
    @SuppressWarnings("unchecked")
    List<String> outcomes() {
        return (List<String>) browser.js("return window.__outcomes;");
    }

    private String safeStatus() {
        try {
            return statusText();
        } catch (RuntimeException e) {
            return "unreadable: " + e.getMessage();
        }
    }
}
