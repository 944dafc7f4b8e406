/*
 * The sale and the clock: the sale read (again every few seconds, the edge micro-caches it), its state on the server's
 * clock, the countdown, and the buy button's state and hint, which every other part re-renders through render().
 */
import * as S from '/assets/seckill.js';
import { ui, page, saleId } from '/assets/sale/page.js';
import { getReady } from '/assets/sale/challenge.js';
import { line, hasLine, lineAdmitted, lineStart } from '/assets/sale/line.js';
import { renderLine } from '/assets/sale/line-panel.js';
import { findMyOrder } from '/assets/sale/order.js';

const SALE_REFRESH_MS = { UPCOMING: 10000, ACTIVE: 5000, SOLD_OUT: 10000 };
const LOAD_RETRY_MS = 3000;

// The sale as last read; written here only (a waiting room that turns out not to exist is cleared on the object).
export let sale = null;
// What this page learnt from purchase and line answers, ahead of the (cached, approximate) sale reads.
let soldOut = false;
let ended = false;
let lastState = null; // the state at the previous tick, to notice the start
let tickTimer = null;
let refreshTimer = null;

export function markSoldOut() {
  soldOut = true;
}

export function markEnded() {
  ended = true;
}

export function effectiveState() {
  const state = S.stateAt(sale, S.clock.now());
  if (state === 'ACTIVE' && ended) {
    return 'ENDED';
  }
  if (hasLine() && line && state !== 'UPCOMING' && state !== 'ENDED') {
    // The line knows before the (cached) sale read: a unit that came back admits the next in line.
    if (lineAdmitted()) {
      return 'ACTIVE';
    }
    if (line.code === 'WAITLIST' || line.code === 'SOLD_OUT') {
      return 'SOLD_OUT';
    }
  }
  return state === 'ACTIVE' && soldOut ? 'SOLD_OUT' : state;
}

export function render() {
  if (!sale) {
    return;
  }
  const now = S.clock.now();
  const state = effectiveState();
  ui.sale.dataset.state = state;
  ui.state.textContent = S.STATE_LABEL[state];
  ui.state.dataset.state = state;
  ui.stock.textContent = S.stockText(sale, state);
  ui.countdown.textContent = S.countdownText(sale, state, now);

  const signedIn = !!S.session();
  ui.buy.disabled = !(state === 'ACTIVE' && signedIn && page.phase === 'idle' && (!hasLine() || lineAdmitted()));
  ui.hint.textContent = hint(state, signedIn);
}

function hint(state, signedIn) {
  if (page.phase === 'waiting') {
    return 'Please keep this page open: it tries again by itself.';
  }
  if (page.phase === 'sending') {
    return 'Sending your order…';
  }
  if (page.phase === 'polling') {
    return 'Your order is being recorded.';
  }
  if (page.phase === 'blocked') {
    return 'The button turns on when the sale starts.';
  }
  const open = state === 'UPCOMING' || state === 'ACTIVE';
  if (hasLine() && ui.order.hidden && open) {
    if (!signedIn) {
      return 'Sign in above to join the line.';
    }
    return lineAdmitted() ? 'It is your turn: one per shopper.'
      : 'The button turns on when it is your turn in the line.';
  }
  if (hasLine() && ui.order.hidden && signedIn && state === 'SOLD_OUT' && line && line.code === 'WAITLIST') {
    return 'Sold out for now: you are on the waiting list.';
  }
  switch (state) {
    case 'UPCOMING':
      return (signedIn ? 'The' : 'Sign in above; the') + ' button turns on when the sale starts.';
    case 'ACTIVE':
      if (!signedIn) {
        return 'Sign in above to buy.';
      }
      return ui.order.hidden ? 'One per shopper.' : 'You have an order in this sale: one per shopper.';
    case 'SOLD_OUT': return 'Every unit has been sold.';
    default: return 'This sale is over.';
  }
}

function tick() {
  render();
  if (!line) {
    renderLine(); // the room's rules change with the time (the opening, the start)
  }
  clearTimeout(tickTimer);
  const state = effectiveState();
  if (state === 'ENDED') {
    return;
  }
  const target = state === 'UPCOMING' ? S.instant(sale.startsAt) : S.instant(sale.endsAt);
  tickTimer = S.tickTowards(target, onTick);
}

function onTick() {
  const state = effectiveState();
  // At the start, read the sale again soon (its stock), a little after the moment so the micro-cache has moved on.
  if (lastState === 'UPCOMING' && state === 'ACTIVE') {
    scheduleRefresh(S.jitter(1200));
    getReady();
  }
  lastState = state;
  tick();
}

export function scheduleRefresh(ms) {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(load, ms);
}

export async function load() {
  let delay;
  try {
    const r = await S.api('GET', '/api/sales/' + encodeURIComponent(saleId));
    if (r.status === 200 && r.body.id != null) {
      sale = r.body;
      if (sale.state === 'ACTIVE' && typeof sale.remaining === 'number' && sale.remaining > 0) {
        soldOut = false; // stock came back (a cancelled reservation)
      }
      showSale();
      const state = effectiveState();
      if (state === 'ENDED') {
        return;
      }
      delay = SALE_REFRESH_MS[state];
      if (state === 'UPCOMING') {
        delay = Math.min(delay, Math.max(0, S.instant(sale.startsAt) - S.clock.now()) + 1200);
      }
    } else if (r.status === 404 || r.status === 400) {
      notFound();
      return;
    } else {
      ui.loadStatus.textContent = 'The sale could not be updated just now; trying again.';
      delay = Number.isFinite(r.retryAfter) ? Math.max(1000 * r.retryAfter, LOAD_RETRY_MS) : LOAD_RETRY_MS;
    }
  } catch (e) {
    ui.loadStatus.textContent = 'The shop cannot be reached just now; trying again.';
    delay = LOAD_RETRY_MS;
  }
  scheduleRefresh(S.jitter(delay));
}

function showSale() {
  ui.loadStatus.textContent = '';
  ui.sale.hidden = false;
  ui.sale.setAttribute('aria-busy', 'false');
  ui.name.textContent = sale.name;
  document.title = sale.name + ' · Seckill';
  ui.price.textContent = S.price(sale.priceCents);
  if (lastState === null) {
    lastState = effectiveState();
    // A waiting-room sale joins its line only when the shopper holds no order in it.
    findMyOrder('YOURS', 'You bought this item. Here is your order.').then(lineStart);
    getReady();
  }
  tick();
}

export function notFound() {
  ui.sale.hidden = true;
  document.title = 'No such sale · Seckill';
  ui.loadStatus.textContent = 'There is no such sale. See all sales on the front page.';
}
