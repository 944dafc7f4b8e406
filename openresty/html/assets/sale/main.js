/*
 * One sale (sale.html?id=N), its parts one module each: clock.js (the sale read, its state and countdown on the
 * server's clock, the buy button), purchase.js (one request a click, told in words; busy answers tried again after
 * Retry-After), challenge.js (a protected sale's purchase path and proof of work), line.js and line-panel.js (the
 * waiting room), order.js (the shopper's order, read from the server) and payment.js (paying before payBy); page.js
 * holds what they share. They call each other, so they import each other in a cycle: nothing but this module runs at
 * load, after all of them are evaluated.
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
