/*
 * What every part of the sale page shares: its elements, the sale's id, the status line, and the two facts about the
 * page as a whole (what the buy button is doing, and which sign-in the requests in flight belong to). Each part keeps
 * its own state in its own module; this one holds only what several parts write.
 */

// Automatic retries after 429/503 in a row before the shopper is asked to click again (a purchase or a payment).
export const MAX_RETRIES = 30;
// Wait after a network failure (no Retry-After to go by). A purchase may have gone through; resending it is
// safe, since a second attempt answers ALREADY_PURCHASED with the order.
export const NETWORK_RETRY_S = 3;

const el = function (id) { return document.getElementById(id); };
export const ui = {
  sale: el('sale'),
  name: el('sale-name'),
  price: el('sale-price'),
  state: el('sale-state'),
  stock: el('sale-stock'),
  countdown: el('countdown'),
  buy: el('buy'),
  hint: el('buy-hint'),
  status: el('status'),
  retry: el('retry-countdown'),
  order: el('order'),
  orderId: el('order-id'),
  orderStatus: el('order-status'),
  checkOrder: el('check-order'),
  payCountdown: el('pay-countdown'),
  pay: el('pay'),
  payStatus: el('pay-status'),
  loadStatus: el('load-status'),
  proof: el('proof'),
  proofText: el('proof-text'),
  proofBar: el('proof-bar'),
  line: el('line'),
  lineStatus: el('line-status'),
  lineTimer: el('line-timer'),
  linePlace: el('line-place'),
  linePosition: el('line-position'),
  lineAhead: el('line-ahead'),
  lineEtaRow: el('line-eta-row'),
  lineEta: el('line-eta'),
  lineProgress: el('line-progress'),
  lineBarText: el('line-bar-text'),
  lineBar: el('line-bar'),
  lineNote: el('line-note'),
};

export const saleId = new URLSearchParams(location.search).get('id');

export const page = {
  // idle | sending | waiting (for Retry-After) | blocked (not started yet) | polling (the order)
  phase: 'idle',
  // Bumped on sign-out: answers to an older session's requests are dropped.
  generation: 0,
};

/** The status line (aria-live): the purchase's and the order's answers, in words. */
export function say(outcome, text) {
  ui.status.dataset.outcome = outcome;
  ui.status.textContent = text;
}
