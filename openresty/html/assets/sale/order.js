/*
 * The order: found on the server (GET /api/sales/{id}/order) on load, on sign-in and after a SOLD_OUT answer, so a
 * winner sees it from any tab or device. A new order is read about once a second (bounded) until it is CONFIRMED;
 * then payment.js shows the pay button and the time left to pay. Once the order is known the buy button comes back
 * (while the sale is on): clicking again is harmless, the service answers ALREADY_PURCHASED with the same order.
 */
import * as S from '/assets/seckill.js';
import { ui, page, saleId, say } from '/assets/sale/page.js';
import { render, scheduleRefresh } from '/assets/sale/clock.js';
import { hasLine, stopLine, lineStart } from '/assets/sale/line.js';
import { renderLine } from '/assets/sale/line-panel.js';
import { renderPayment, forgetPayment } from '/assets/sale/payment.js';

const ORDER_POLL_MS = 1000;
const ORDER_POLLS = 90;

let pollTimer = null;

/** Signing out: the order shown is the previous shopper's. */
export function resetOrder() {
  clearTimeout(pollTimer);
  ui.order.hidden = true;
  ui.order.dataset.orderId = '';
}

/** Asks the server for the shopper's order in this sale; shows it when there is one. */
export async function findMyOrder(outcome, text) {
  const session = S.session();
  if (!session) {
    return;
  }
  const mine = page.generation;
  let r;
  try {
    r = await S.api('GET', '/api/sales/' + encodeURIComponent(saleId) + '/order', session.token);
  } catch (e) {
    return; // no answer: the next purchase answer or sale read brings the order back
  }
  if (mine !== page.generation || r.status !== 200 || !r.body.orderId) {
    return;
  }
  if (outcome && (page.phase === 'idle' || page.phase === 'polling') && ui.order.hidden) {
    say(outcome, text);
  }
  showOrder(r.body.orderId, r.body);
}

/** Shows an order: from an answer that has its status and payBy, or (null) to be read from the server. */
export function showOrder(orderId, known) {
  if (ui.order.dataset.orderId !== orderId) {
    forgetPayment();
  }
  ui.order.hidden = false;
  stopLine(); // an order ends the shopper's line: their admission is used
  renderLine();
  ui.orderId.textContent = orderId;
  ui.order.dataset.orderId = orderId;
  ui.checkOrder.hidden = true;
  const status = known ? known.status : null;
  setOrderStatus(status, known ? known.payBy : null);
  if (status === 'CONFIRMED' || status === 'PAID' || status === 'EXPIRED') {
    orderDone(status);
    return;
  }
  page.phase = 'polling';
  pollOrder(orderId, ORDER_POLLS, status === null ? 0 : ORDER_POLL_MS);
}

const ORDER_LABEL = {
  QUEUED: 'Reserved, being recorded…',
  CONFIRMED: 'Confirmed: waiting for your payment',
  PAID: 'Paid',
  EXPIRED: 'Expired: not paid in time',
};

function setOrderStatus(status, payBy) {
  ui.orderStatus.dataset.status = status || '';
  ui.orderStatus.textContent = ORDER_LABEL[status] || 'Checking…';
  if (payBy !== undefined) {
    ui.order.dataset.payBy = payBy || '';
  }
  renderPayment();
}


function pollOrder(orderId, left, delay) {
  clearTimeout(pollTimer);
  const mine = page.generation;
  pollTimer = setTimeout(async function () {
    const session = S.session();
    if (!session || mine !== page.generation) {
      return;
    }
    let next = ORDER_POLL_MS;
    try {
      const r = await S.api('GET', '/api/orders/' + encodeURIComponent(orderId), session.token);
      if (mine !== page.generation) {
        return;
      }
      if (r.status === 200 && r.code !== 'QUEUED') {
        orderDone(r.code, r.body.payBy);
        return;
      }
      if (r.status === 200) {
        setOrderStatus(r.code, r.body.payBy);
      } else if (r.status === 401) {
        S.signOut();
        orderDone(null);
        say('UNAUTHENTICATED', 'Your sign-in has expired. Please sign in again to see your order.');
        return;
      } else if (r.status === 404) {
        orderDone(null);
        ui.order.hidden = true;
        say('ORDER_NOT_FOUND', 'Your order could not be found. If the sale is still on, please try again.');
        lineStart(); // a waiting-room sale: back to the shopper's place
        render();
        return;
      } else if (Number.isFinite(r.retryAfter)) {
        next = Math.max(next, r.retryAfter * 1000);
      }
    } catch (e) {
      // No answer this time: ask again on the next round.
    }
    if (left <= 1) {
      orderDone(ui.orderStatus.dataset.status || null);
      say('ORDER_PENDING', 'Your order is reserved and is still being recorded. Check again in a little while.');
      ui.checkOrder.hidden = false;
      return;
    }
    pollOrder(orderId, left - 1, next);
  }, delay);
}

/** Polling is over: the button comes back (a click now answers ALREADY_PURCHASED). */
export function orderDone(status, payBy) {
  page.phase = 'idle';
  if (status) {
    setOrderStatus(status, payBy);
  }
  const outcome = ui.status.dataset.outcome;
  if (status === 'CONFIRMED') {
    if (outcome === 'ALREADY_PURCHASED') {
      say(outcome, 'You have already bought this item (one per shopper). Your order is confirmed.');
    } else if (outcome === 'YOURS') {
      say(outcome, 'You bought this item. Your order is confirmed.');
    } else {
      say('CONFIRMED', 'Your order is confirmed. Please pay before the time runs out.');
    }
  } else if (status === 'PAID') {
    say('PAID', outcome === 'YOURS' || outcome === 'ALREADY_PURCHASED'
      ? 'You bought this item and it is paid. Thank you!' : 'Paid. Thank you!');
  } else if (status === 'EXPIRED') {
    say('EXPIRED', hasLine()
      ? 'Your order was not paid in time and has expired: the unit went to the next in line.'
      : 'Your order was not paid in time and has expired: the unit went back on sale.');
    scheduleRefresh(S.jitter(1000)); // the sale has a unit again
  }
  render();
}
