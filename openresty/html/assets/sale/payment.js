/*
 * Paying: a CONFIRMED order shows a pay button and a countdown to payBy on the server's clock. A payment carries one
 * Idempotency-Key, the same on every retry, so it is taken once. After paying the order shows PAID; once payBy
 * passes, EXPIRED (order.js), and the sale is read again (its unit is back on sale).
 */
import * as S from '/assets/seckill.js';
import { ui, page, MAX_RETRIES, NETWORK_RETRY_S } from '/assets/sale/page.js';
import { orderDone } from '/assets/sale/order.js';

// After payBy: the server's expiry runs about once a second; read the order until it says EXPIRED.
const EXPIRY_POLL_MS = 1500;
const EXPIRY_POLLS = 20;

let payTimer = null;
let payRetryTimer = null;
let paying = false;
let payKey = null; // one per order on this page, the same for every retry of that payment
let payRetries = 0;

/** Another order is shown: its payment starts afresh. */
export function forgetPayment() {
  payKey = null;
  ui.payStatus.textContent = '';
  ui.payStatus.dataset.outcome = '';
}

/** Signing out: the payment under way is the previous shopper's. */
export function resetPayment() {
  clearTimeout(payTimer);
  clearTimeout(payRetryTimer);
  paying = false;
  sayPay('', '');
}

/** The pay button and the countdown to payBy (on the server's clock), while the order is CONFIRMED. */
export function renderPayment() {
  clearTimeout(payTimer);
  const status = ui.orderStatus.dataset.status;
  const payBy = S.instant(ui.order.dataset.payBy);
  const due = status === 'CONFIRMED' && !isNaN(payBy);
  ui.payCountdown.hidden = !due;
  ui.pay.hidden = !due;
  if (!due) {
    return;
  }
  const left = payBy - S.clock.now();
  ui.payCountdown.textContent = left > 0 ? 'Pay within ' + S.duration(left) : 'The time to pay is up';
  ui.pay.disabled = left <= 0 || paying;
  if (left > 0) {
    payTimer = S.tickTowards(payBy, renderPayment);
  } else if (!paying) {
    // payBy passed: the server lets the order lapse within moments; read it until it says so.
    payTimer = setTimeout(function () { refreshOrder(EXPIRY_POLLS); }, EXPIRY_POLL_MS);
  }
}

/** Reads the order again (after payBy, or on request) up to `left` times until it is no longer CONFIRMED. */
async function refreshOrder(left) {
  const session = S.session();
  const orderId = ui.order.dataset.orderId;
  if (!session || !orderId) {
    return;
  }
  const mine = page.generation;
  try {
    const r = await S.api('GET', '/api/orders/' + encodeURIComponent(orderId), session.token);
    if (mine !== page.generation) {
      return;
    }
    if (r.status === 200 && r.code !== 'CONFIRMED') {
      orderDone(r.code, r.body.payBy);
      return;
    }
  } catch (e) {
    // No answer this time: ask again below.
  }
  if (left > 1) {
    payTimer = setTimeout(function () { refreshOrder(left - 1); }, EXPIRY_POLL_MS);
  }
}

function newKey() {
  if (window.crypto && typeof window.crypto.randomUUID === 'function') {
    return window.crypto.randomUUID();
  }
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.from(bytes, function (b) { return b.toString(16).padStart(2, '0'); }).join('');
}

function sayPay(outcome, text) {
  ui.payStatus.dataset.outcome = outcome;
  ui.payStatus.textContent = text;
}

export function pay() {
  if (ui.pay.disabled || paying) {
    return;
  }
  payKey = payKey || newKey();
  payRetries = 0;
  payAttempt();
}

async function payAttempt() {
  const session = S.session();
  const orderId = ui.order.dataset.orderId;
  if (!session || !orderId) {
    return;
  }
  const mine = page.generation;
  paying = true;
  sayPay('PAYING', 'Paying…');
  renderPayment();
  let r;
  try {
    r = await S.api('POST', '/api/orders/' + encodeURIComponent(orderId) + '/pay', session.token,
      { 'Idempotency-Key': payKey });
  } catch (e) {
    r = { status: 0, code: 'NETWORK', body: {}, retryAfter: NETWORK_RETRY_S };
  }
  if (mine !== page.generation) {
    return;
  }
  paid(r);
}

function paid(r) {
  switch (r.code) {
    case 'PAID':
      paying = false;
      sayPay('PAID', 'Payment received.');
      orderDone('PAID', r.body.payBy);
      return;
    case 'ORDER_EXPIRED':
      paying = false;
      sayPay('EXPIRED', 'Too late: the time to pay had passed.');
      orderDone('EXPIRED');
      return;
    case 'PAYMENT_DECLINED':
      paying = false;
      sayPay('PAYMENT_DECLINED', 'Your payment was declined. You can try again before the time runs out.');
      payKey = null; // a new attempt is a new payment
      renderPayment();
      return;
    case 'UNAUTHENTICATED':
      paying = false;
      S.signOut();
      sayPay('UNAUTHENTICATED', 'Your sign-in has expired. Please sign in again, then pay.');
      return;
    default:
      // Not yet recorded (409), busy (429, 503) or no answer: the same payment again after Retry-After. The
      // key makes a payment that did go through answer PAID rather than charge twice.
      payRetries += 1;
      if (payRetries <= MAX_RETRIES && (r.code === 'ORDER_NOT_CONFIRMED' || r.status === 429 || r.status === 503
          || r.code === 'NETWORK')) {
        const seconds = Number.isFinite(r.retryAfter) && r.retryAfter > 0 ? r.retryAfter : 1;
        sayPay('RETRYING', 'Your payment is waiting its turn: trying again in ' + seconds + ' s.');
        clearTimeout(payRetryTimer);
        payRetryTimer = setTimeout(payAttempt, seconds * 1000);
        return;
      }
      paying = false;
      sayPay('ERROR', 'The payment did not go through. Please try again.');
      renderPayment();
  }
}
