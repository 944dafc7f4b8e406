/*
 * One sale (sale.html?id=N): name, price, stock, a countdown on the server's clock, and the buy button, which is
 * enabled only while the sale is ACTIVE, the shopper is signed in and no purchase of this page is under way.
 *
 * A click sends exactly one purchase request. Every answer is told in words (the status line is aria-live):
 * QUEUED and ALREADY_PURCHASED show the order and poll it about once a second (bounded) until CONFIRMED;
 * RATE_LIMITED and UNAVAILABLE (429, 503) say the shop is busy (nobody is queued: the page only waits): the button
 * stays disabled and the page tries again by itself once Retry-After seconds have passed, never sooner, so a crowd
 * cannot hammer the service.
 * Once the order is known the button comes back (while the sale is on): clicking again is harmless, the service
 * answers ALREADY_PURCHASED with the same order.
 *
 * The order lives on the server: on load, on sign-in and after a SOLD_OUT answer the page asks for the shopper's
 * order in this sale (GET /api/sales/{id}/order), so a winner sees it from any tab or device. A CONFIRMED order
 * shows a pay button and a countdown to payBy on the server's clock; a payment carries one Idempotency-Key, the same
 * on every retry, so it is taken once. After paying it shows PAID; once payBy passes, EXPIRED, and the sale is read
 * again (its unit is back on sale).
 *
 * A protected sale (its `protection` is `path` or `challenge`) is bought through a purchase path. Once the
 * sale is on and the shopper signed in, the page gets one ahead of the click: for a `challenge` sale it fetches a
 * challenge and solves it in a Web Worker (/assets/pow.js) with a progress bar, then asks for the path; for a
 * `path` sale it asks at once. The click buys through the path, waiting for it if it is not ready yet: still one
 * click. A path the service refuses (PATH_INVALID: expired, or not this shopper's) is dropped and a new one fetched,
 * once per click.
 *
 * A sale with a waiting room (its `waitingRoom`, docs/waiting-room.md) sells to a line. Once the shopper is signed in
 * the page joins it (POST /api/sales/{id}/line), counting down to the opening first (`opensAt`; a NOT_STARTED answer
 * says when), and keeps the ticket in sessionStorage per sale, so a reload polls with the same place (joining again
 * would give it back anyway). It polls with the ticket (X-Line-Ticket, answered by the edge) every `refreshSeconds`,
 * and shows what the answer says: before the draw when places are drawn (`drawAt`); then the place, the people ahead,
 * the estimated wait and how far the line has moved towards the shopper; ADMITTED turns the buy button on until
 * `admittedUntil` (the purchase carries the ticket; a `challenge` sale's check is solved while the turn nears, so the
 * click buys at once); WAITLIST, SOLD_OUT, ADMISSION_LAPSED and SALE_ENDED are told as they come. The line lives in
 * its own aria-live region; the purchase's answers stay on the status line.
 */
/*
 * The page's parts, one module each: clock.js (the sale read, its state and countdown, the buy button), purchase.js,
 * challenge.js (protected sales), line.js and line-panel.js (the waiting room), order.js, payment.js; page.js holds
 * what they share. They call each other (the original page was one closure), so they import each other in a cycle:
 * nothing but this module runs at load, after all of them are evaluated.
 */
import * as S from '/assets/seckill.js';
import { ui, page, saleId } from '/assets/sale/page.js';
import { sale, render, load, notFound } from '/assets/sale/clock.js';
import { buy, resetPurchase } from '/assets/sale/purchase.js';
import { getReady, resetChallenge } from '/assets/sale/challenge.js';
import { lineStart, resetLine } from '/assets/sale/line.js';
import { findMyOrder, showOrder, resetOrder } from '/assets/sale/order.js';
import { pay, resetPayment } from '/assets/sale/payment.js';

S.onAccountChange(function (session) {
  if (!session) {
    // Signing out stops what this page was doing for the previous shopper.
    page.generation += 1;
    resetPurchase();
    resetChallenge();
    resetPayment();
    resetOrder();
    resetLine(); // last: the line's panel shows again once the order is hidden
  } else if (sale) {
    findMyOrder('YOURS', 'You bought this item. Here is your order.').then(lineStart);
    getReady();
  }
  render();
});

ui.buy.addEventListener('click', buy);
ui.checkOrder.addEventListener('click', function () {
  showOrder(ui.order.dataset.orderId, null);
});
ui.pay.addEventListener('click', pay);

if (!saleId || !/^\d{1,19}$/.test(saleId)) {
  notFound();
} else {
  load();
}
