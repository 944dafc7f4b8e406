/*
 * One sale (sale.html?id=N): name, price, stock, a countdown on the server's clock, and the buy button, which is
 * enabled only while the sale is ACTIVE, the shopper is signed in and no purchase of this page is under way.
 *
 * A click sends exactly one purchase request. Every answer is told in words (the status line is aria-live):
 * QUEUED and ALREADY_PURCHASED show the order and poll it about once a second (bounded) until CONFIRMED;
 * RATE_LIMITED and UNAVAILABLE (429, 503) put the shopper in a queue: the button stays disabled and the page tries
 * again by itself once Retry-After seconds have passed, never sooner, so a crowd cannot hammer the service.
 * Once the order is known the button comes back (while the sale is on): clicking again is harmless, the service
 * answers ALREADY_PURCHASED with the same order. The order id is also kept for the tab's session, so a shopper who
 * comes back to a sale that has since sold out still sees the order.
 */
(function () {
  'use strict';

  const S = window.Seckill;
  const SALE_REFRESH_MS = { UPCOMING: 10000, ACTIVE: 5000, SOLD_OUT: 10000 };
  const LOAD_RETRY_MS = 3000;
  const ORDER_POLL_MS = 1000;
  const ORDER_POLLS = 90;
  // Automatic retries after 429/503 in a row before the shopper is asked to click again.
  const MAX_RETRIES = 30;
  // Wait after a network failure (no Retry-After to go by). A purchase may have gone through; resending it is
  // safe, since a second attempt answers ALREADY_PURCHASED with the order.
  const NETWORK_RETRY_S = 3;
  const ORDERS_KEY = 'seckill.orders';

  const el = function (id) { return document.getElementById(id); };
  const ui = {
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
    loadStatus: el('load-status'),
  };

  const saleId = new URLSearchParams(location.search).get('id');

  let sale = null;
  // What this page learnt from purchase answers, ahead of the (cached, approximate) sale reads.
  let soldOut = false;
  let ended = false;
  // idle | sending | waiting (for Retry-After) | blocked (not started yet) | polling (the order)
  let phase = 'idle';
  let retries = 0;
  let retryTimer = null;
  let tickTimer = null;
  let refreshTimer = null;
  let pollTimer = null;
  let generation = 0; // bumped on sign-out: answers to an older session's requests are dropped
  let lastState = null; // the state at the previous tick, to notice the start

  // ---- the sale and the clock

  function effectiveState() {
    const state = S.stateAt(sale, S.clock.now());
    if (state === 'ACTIVE' && ended) {
      return 'ENDED';
    }
    return state === 'ACTIVE' && soldOut ? 'SOLD_OUT' : state;
  }

  function render() {
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
    ui.buy.disabled = !(state === 'ACTIVE' && signedIn && phase === 'idle');
    ui.hint.textContent = hint(state, signedIn);
  }

  function hint(state, signedIn) {
    if (phase === 'waiting') {
      return 'Please keep this page open: it tries again by itself.';
    }
    if (phase === 'sending') {
      return 'Sending your order…';
    }
    if (phase === 'polling') {
      return 'Your order is being recorded.';
    }
    if (phase === 'blocked') {
      return 'The button turns on when the sale starts.';
    }
    switch (state) {
      case 'UPCOMING':
        return (signedIn ? 'The' : 'Sign in above; the') + ' button turns on when the sale starts.';
      case 'ACTIVE':
        if (!signedIn) {
          return 'Sign in above to buy.';
        }
        return ui.order.hidden ? 'One per shopper.' : 'You have bought this item: one per shopper.';
      case 'SOLD_OUT': return 'Every unit has been sold.';
      default: return 'This sale is over.';
    }
  }

  function tick() {
    render();
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
    }
    lastState = state;
    tick();
  }

  function scheduleRefresh(ms) {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(load, ms);
  }

  async function load() {
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
      showRememberedOrder();
    }
    tick();
  }

  function notFound() {
    ui.sale.hidden = true;
    document.title = 'No such sale · Seckill';
    ui.loadStatus.textContent = 'There is no such sale. See all sales on the front page.';
  }

  // ---- the purchase

  function say(outcome, text) {
    ui.status.dataset.outcome = outcome;
    ui.status.textContent = text;
  }

  function buy() {
    if (ui.buy.disabled || phase !== 'idle') {
      return;
    }
    retries = 0;
    attempt();
  }

  async function attempt() {
    const session = S.session();
    if (!session) {
      phase = 'idle';
      say('UNAUTHENTICATED', 'Please sign in to buy.');
      render();
      return;
    }
    const mine = generation;
    phase = 'sending';
    ui.retry.textContent = '';
    say('SENDING', 'Sending your order…');
    render();
    let r;
    try {
      r = await S.api('POST', '/api/sales/' + encodeURIComponent(saleId) + '/purchase', session.token);
    } catch (e) {
      r = { status: 0, code: 'NETWORK', body: {}, retryAfter: NETWORK_RETRY_S };
    }
    if (mine !== generation) {
      return;
    }
    answer(r);
    render();
  }

  function answer(r) {
    switch (r.code) {
      case 'QUEUED':
        remember(r.body.orderId);
        say('QUEUED', 'You got one! Your order is reserved and is being recorded…');
        showOrder(r.body.orderId, 'QUEUED');
        return;
      case 'ALREADY_PURCHASED':
        remember(r.body.orderId);
        say('ALREADY_PURCHASED', 'You have already bought this item (one per shopper). Here is your order.');
        showOrder(r.body.orderId, null);
        return;
      case 'SOLD_OUT':
        phase = 'idle';
        soldOut = true;
        say('SOLD_OUT', 'Sorry, it is sold out: every unit has been sold.');
        return;
      case 'SALE_ENDED':
        phase = 'idle';
        ended = true;
        say('SALE_ENDED', 'Sorry, this sale has ended.');
        return;
      case 'NOT_STARTED':
        notStarted(r);
        return;
      case 'UNAUTHENTICATED':
        phase = 'idle';
        S.signOut();
        say('UNAUTHENTICATED', 'Your sign-in has expired. Please sign in again, then buy.');
        return;
      case 'SALE_NOT_FOUND':
        phase = 'idle';
        notFound();
        say('SALE_NOT_FOUND', 'There is no such sale.');
        return;
      default:
        if (r.status === 429 || r.status === 503 || r.code === 'RATE_LIMITED' || r.code === 'UNAVAILABLE'
            || r.code === 'NETWORK') {
          queue(r);
          return;
        }
        phase = 'idle';
        say('ERROR', 'Something went wrong' + (r.body.message ? ': ' + r.body.message : '') + '. Please try again.');
    }
  }

  /** 429 or 503: wait exactly Retry-After seconds (measured on the monotonic clock), then try again by itself. */
  function queue(r) {
    retries += 1;
    if (retries > MAX_RETRIES) {
      phase = 'idle';
      say('GAVE_UP', 'The shop is still too busy. Please try again in a little while.');
      return;
    }
    const seconds = Number.isFinite(r.retryAfter) && r.retryAfter > 0 ? r.retryAfter : 1;
    const due = r.receivedAt !== undefined ? r.receivedAt + seconds * 1000 : performance.now() + seconds * 1000;
    phase = 'waiting';
    say('RETRYING', r.code === 'NETWORK'
      ? 'The shop cannot be reached just now. Hold on: you are in the queue and we will try again for you in '
        + seconds + ' s.'
      : 'Lots of shoppers are buying right now. Hold on: you are in the queue and we will try again for you in '
        + seconds + ' s.');
    waitUntil(due, attempt);
  }

  /** Calls fn once performance.now() >= due, showing the seconds left; timers never run it early. */
  function waitUntil(due, fn) {
    clearTimeout(retryTimer);
    const mine = generation;
    const step = function () {
      if (mine !== generation) {
        return;
      }
      const left = due - performance.now();
      if (left <= 0) {
        ui.retry.textContent = '';
        fn();
        return;
      }
      ui.retry.textContent = 'Trying again in ' + Math.ceil(left / 1000) + ' s';
      retryTimer = setTimeout(step, left % 1000 || 1000);
    };
    step();
  }

  function notStarted(r) {
    const seconds = Number.isFinite(r.retryAfter) && r.retryAfter > 0 ? r.retryAfter : 1;
    phase = 'blocked';
    say('NOT_STARTED', 'The sale has not started yet. The button turns on again in ' + seconds + ' s.');
    waitUntil(r.receivedAt + seconds * 1000, function () {
      phase = 'idle';
      scheduleRefresh(0);
      render();
    });
  }

  // ---- the order

  /** The orders of this tab's session, by user and sale (sessionStorage; nothing is kept when it is refused). */
  function orders() {
    try {
      return JSON.parse(sessionStorage.getItem(ORDERS_KEY)) || {};
    } catch (e) {
      return {};
    }
  }

  function orderKey() {
    const session = S.session();
    return session ? session.userId + ':' + saleId : null;
  }

  function remember(orderId) {
    const all = orders();
    const key = orderKey();
    if (!key) {
      return;
    }
    if (orderId) {
      all[key] = orderId;
    } else {
      delete all[key];
    }
    try {
      sessionStorage.setItem(ORDERS_KEY, JSON.stringify(all));
    } catch (e) {
      // Not kept: the shopper then learns of the order from the ALREADY_PURCHASED answer to a click.
    }
  }

  /** A shopper back on the page of a sale they bought in this session sees the order without clicking. */
  function showRememberedOrder() {
    const key = orderKey();
    const orderId = key ? orders()[key] : null;
    if (orderId && phase === 'idle' && ui.order.hidden) {
      say('YOURS', 'You bought this item. Here is your order.');
      showOrder(orderId, null);
    }
  }

  function showOrder(orderId, status) {
    phase = 'polling';
    ui.order.hidden = false;
    ui.orderId.textContent = orderId;
    ui.order.dataset.orderId = orderId;
    ui.checkOrder.hidden = true;
    setOrderStatus(status);
    pollOrder(orderId, ORDER_POLLS, status === null ? 0 : ORDER_POLL_MS);
  }

  function setOrderStatus(status) {
    ui.orderStatus.dataset.status = status || '';
    ui.orderStatus.textContent = status === 'CONFIRMED' ? 'Confirmed'
      : status === 'QUEUED' ? 'Reserved, being recorded…' : 'Checking…';
  }

  function pollOrder(orderId, left, delay) {
    clearTimeout(pollTimer);
    const mine = generation;
    pollTimer = setTimeout(async function () {
      const session = S.session();
      if (!session || mine !== generation) {
        return;
      }
      let next = ORDER_POLL_MS;
      try {
        const r = await S.api('GET', '/api/orders/' + encodeURIComponent(orderId), session.token);
        if (mine !== generation) {
          return;
        }
        if (r.status === 200 && r.code === 'CONFIRMED') {
          orderDone('CONFIRMED');
          return;
        }
        if (r.status === 200) {
          setOrderStatus(r.code);
        } else if (r.status === 401) {
          S.signOut();
          orderDone(null);
          say('UNAUTHENTICATED', 'Your sign-in has expired. Please sign in again to see your order.');
          return;
        } else if (r.status === 404) {
          remember(null);
          orderDone(null);
          ui.order.hidden = true;
          say('ORDER_NOT_FOUND', 'Your order could not be found. If the sale is still on, please try again.');
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
  function orderDone(status) {
    phase = 'idle';
    if (status) {
      setOrderStatus(status);
    }
    if (status === 'CONFIRMED') {
      const outcome = ui.status.dataset.outcome;
      if (outcome === 'ALREADY_PURCHASED') {
        say(outcome, 'You have already bought this item (one per shopper). Your order is confirmed.');
      } else if (outcome === 'YOURS') {
        say(outcome, 'You bought this item. Your order is confirmed.');
      } else {
        say('CONFIRMED', 'Your order is confirmed. Thank you!');
      }
    }
    render();
  }

  // ---- wiring

  S.onAccountChange(function (session) {
    if (!session) {
      // Signing out stops what this page was doing for the previous shopper.
      generation += 1;
      clearTimeout(retryTimer);
      clearTimeout(pollTimer);
      ui.retry.textContent = '';
      phase = 'idle';
      ui.order.hidden = true;
      say('', '');
    } else if (sale) {
      showRememberedOrder();
    }
    render();
  });

  ui.buy.addEventListener('click', buy);
  ui.checkOrder.addEventListener('click', function () {
    showOrder(ui.order.dataset.orderId, ui.orderStatus.dataset.status || null);
  });

  if (!saleId || !/^\d{1,19}$/.test(saleId)) {
    notFound();
  } else {
    load();
  }
}());
