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
 * challenge and solves it in a Web Worker (assets/pow.*.js) with a progress bar, then asks for the path; for a
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
  // After payBy: the server's expiry runs about once a second; read the order until it says EXPIRED.
  const EXPIRY_POLL_MS = 1500;
  const EXPIRY_POLLS = 20;
  // A path this close to its expiry (server clock) is replaced rather than risked on a purchase.
  const PATH_MARGIN_MS = 5000;
  // Challenges fetched in a row for one path when the previous one lapsed or was used (another tab) meanwhile.
  const CHALLENGE_ATTEMPTS = 3;
  const POW_WORKER = document.querySelector('meta[name="seckill-pow-worker"]').content;
  // The waiting room: the ticket's sessionStorage key (+ sale id), the wait after an unanswered join or poll, how soon
  // before the expected turn a `challenge` sale's check is solved (a challenge lives 60 s, a path 120 s), and how
  // widely open pages spread their joins after the opening (at most a tenth of the pre-queue: its places are drawn
  // at random, so a page joining a moment later loses nothing, and the service does not get every join at once).
  const LINE_KEY = 'seckill.line.';
  const LINE_RETRY_S = 3;
  const PREPARE_WITHIN_S = 60;
  const JOIN_SPREAD_MS = 5000;

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
  let payTimer = null;
  let payRetryTimer = null;
  let paying = false;
  let payKey = null;
  let payRetries = 0;
  let generation = 0; // bumped on sign-out: answers to an older session's requests are dropped
  let lastState = null; // the state at the previous tick, to notice the start
  let pathRetried = false; // this click already replaced a refused path
  let purchasePath = null; // a protected sale's path for this shopper: { path, expiresAt, token }
  let preparing = null; // the path under way: { token, promise }
  let worker = null; // the proof of work under way
  // The waiting room: the shopper's last standing { code, body } (code: an answer's, or OPENING before the line opens,
  // JOINING), a note on an unanswered request, the next join or poll, the countdown's tick, a ticket kept in memory
  // when sessionStorage refuses, and whether a refused ticket was already replaced by joining again.
  let line = null;
  let lineNote = '';
  let lineTimer = null;
  let lineTick = null;
  let lineMemory = null;
  let lineRejoined = false;

  // ---- the sale and the clock

  function effectiveState() {
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
    ui.buy.disabled = !(state === 'ACTIVE' && signedIn && phase === 'idle' && (!hasLine() || lineAdmitted()));
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
      // A waiting-room sale joins its line only when the shopper holds no order in it.
      findMyOrder('YOURS', 'You bought this item. Here is your order.').then(lineStart);
      getReady();
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
    pathRetried = false;
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
      let route = '/api/sales/' + encodeURIComponent(saleId) + '/purchase';
      if (isProtected()) {
        const ready = await pathFor(session);
        if (mine !== generation) {
          return;
        }
        if (!ready.path) {
          answer(ready.answer);
          render();
          return;
        }
        say('SENDING', 'Sending your order…');
        route += '/' + encodeURIComponent(ready.path);
      }
      r = await S.api('POST', route, session.token, lineHeaders(session));
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
        say('QUEUED', 'You got one! Your order is reserved and is being recorded…');
        showOrder(r.body.orderId, { status: 'QUEUED', payBy: null });
        return;
      case 'ALREADY_PURCHASED':
        say('ALREADY_PURCHASED', 'You have already bought this item (one per shopper). Here is your order.');
        showOrder(r.body.orderId, null);
        return;
      case 'SOLD_OUT':
        phase = 'idle';
        soldOut = true;
        if (hasLine()) {
          lineIn(0, poll); // the line says whether a unit may still come back (a waiting list) or none can
        }
        say('SOLD_OUT', 'Sorry, it is sold out: every unit has been sold.');
        // A winner who lost an earlier answer hears SOLD_OUT too: their order is still theirs.
        if (ui.order.hidden) {
          findMyOrder('YOURS', 'It is sold out, and one of the units is yours. Here is your order.');
        }
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
      case 'NOT_ADMITTED': {
        // The line has not admitted this ticket (yet, or any more): its next poll says where the shopper stands.
        phase = 'idle';
        const wait = Number.isFinite(r.retryAfter) && r.retryAfter > 0 ? r.retryAfter : 1;
        if (line && line.code === 'ADMITTED' && !lineAdmitted()) {
          say('NOT_ADMITTED', 'Your turn ended before your order could go through.');
        } else {
          say('NOT_ADMITTED', 'It is not your turn yet. This page keeps your place in the line and turns the button'
            + ' on when your turn comes.');
        }
        lineIn(wait * 1000, poll);
        return;
      }
      case 'TICKET_INVALID':
      case 'TICKET_EXPIRED':
        // Not this shopper's ticket (another sign-in in this tab) or a stale one: join again, which gives the
        // shopper's own place back.
        phase = 'idle';
        forgetTicket();
        say('NOT_ADMITTED', 'Your place in the line had to be checked again. One moment…');
        lineIn(0, join);
        return;
      case 'PATH_INVALID':
      case 'PATH_REQUIRED':
        // The path lapsed or is not this shopper's: a new one, once per click (a second refusal is an error).
        purchasePath = null;
        if (!pathRetried) {
          pathRetried = true;
          attempt();
          return;
        }
        phase = 'idle';
        say('ERROR', 'Your purchase link was refused. Please try again.');
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
    // Honest: nobody is queued here, the page only waits as it was told (a waiting room's line is told apart).
    say('RETRYING', r.code === 'NETWORK'
      ? 'The shop cannot be reached just now: this page tries again for you in ' + seconds + ' s.'
      : 'Busy: the shop is taking many orders right now. This page tries again for you in ' + seconds + ' s.');
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

  // ---- protected sales (issue 15): a purchase path, behind a proof of work for `challenge` sales

  function isProtected() {
    return !!sale && (sale.protection === 'path' || sale.protection === 'challenge');
  }

  /** Gets a path ahead of the click once the sale is on and the shopper signed in; its failures wait for the click. */
  function getReady() {
    const session = S.session();
    if (session && isProtected() && effectiveState() === 'ACTIVE' && ui.order.hidden && turnNear()) {
      pathFor(session).catch(function () { /* the click asks again */ });
    }
  }

  /**
   * Resolves to { path } for this shopper, the one in hand while it has PATH_MARGIN_MS left, or to { answer }: the
   * API answer that stopped it (not started, sold out, rate limited...), for answer() to act on like a purchase's.
   * Concurrent callers share the fetch under way.
   */
  function pathFor(session) {
    if (purchasePath && purchasePath.token === session.token
        && S.instant(purchasePath.expiresAt) - S.clock.now() > PATH_MARGIN_MS) {
      return Promise.resolve({ path: purchasePath.path });
    }
    if (!preparing || preparing.token !== session.token) {
      const mine = { token: session.token, promise: null };
      mine.promise = fetchPath(session).finally(function () {
        if (preparing === mine) {
          preparing = null;
        }
      });
      preparing = mine;
    }
    return preparing.promise;
  }

  async function fetchPath(session) {
    const base = '/api/sales/' + encodeURIComponent(saleId);
    for (let i = 0; i < CHALLENGE_ATTEMPTS; i++) {
      let solution; // a path sale sends no body
      if (sale.protection === 'challenge') {
        const c = await S.api('GET', base + '/challenge', session.token);
        if (c.status !== 200) {
          return { answer: c };
        }
        const solved = await proofOfWork(c.body.salt, c.body.bits);
        solution = { challengeId: c.body.challengeId, nonce: solved.nonce };
      }
      const p = await S.api('POST', base + '/path', session.token, null, solution);
      if (p.status === 200) {
        purchasePath = { path: p.body.path, expiresAt: p.body.expiresAt, token: session.token };
        return { path: p.body.path };
      }
      // The challenge lapsed or was used meanwhile: solve a fresh one. Any other answer stops here.
      if (p.code !== 'CHALLENGE_EXPIRED' && p.code !== 'CHALLENGE_USED') {
        return { answer: p };
      }
    }
    return { answer: { status: 0, code: 'ERROR', body: { message: 'the check could not be completed' } } };
  }

  /** Solves a challenge in the worker, showing its progress; resolves to { nonce, tried, rate }. */
  function proofOfWork(salt, bits) {
    const expected = Math.pow(2, bits);
    showProof('working', 'Getting your purchase ready: a quick check that you are a person…', 0);
    return new Promise(function (resolve, reject) {
      if (worker) {
        worker.terminate();
      }
      const w = new Worker(POW_WORKER);
      worker = w;
      w.onmessage = function (e) {
        const m = e.data;
        if (m.error) {
          w.terminate();
          showProof('failed', 'This browser could not run the check: ' + m.error, 0);
          reject(new Error(m.error));
          return;
        }
        ui.proof.dataset.rate = String(m.rate);
        if (m.nonce === undefined) {
          // The chance of having found a solution by now, which climbs the way the wait does on average.
          showProof('working', 'Getting your purchase ready: a quick check that you are a person…',
            1 - Math.exp(-m.progress / expected));
          return;
        }
        w.terminate();
        worker = null;
        ui.proof.dataset.tried = String(m.tried);
        showProof('ready', 'Ready: the check is done.', 1);
        resolve(m);
      };
      w.onerror = function (e) {
        w.terminate();
        showProof('failed', 'This browser could not run the check.', 0);
        reject(new Error(e.message || 'worker failed'));
      };
      w.postMessage({ salt: salt, bits: bits });
    });
  }

  function showProof(state, text, done) {
    ui.proof.hidden = false;
    ui.proof.dataset.state = state;
    ui.proofText.textContent = text;
    ui.proofBar.value = done;
  }

  // ---- the waiting room (docs/waiting-room.md): join, poll with the ticket, buy when admitted

  const count = new Intl.NumberFormat('en-US');

  function hasLine() {
    return !!sale && !!sale.waitingRoom;
  }

  function lineRoute() {
    return '/api/sales/' + encodeURIComponent(saleId) + '/line';
  }

  /** The shopper's ticket for this sale, from sessionStorage (this tab), or null. */
  function ticketFor(session) {
    let kept = lineMemory;
    try {
      kept = JSON.parse(sessionStorage.getItem(LINE_KEY + saleId)) || lineMemory;
    } catch (e) {
      // Storage refused or held something else: the copy in memory, if any.
    }
    return kept && session && kept.userId === session.userId && typeof kept.ticket === 'string' ? kept.ticket : null;
  }

  function keepTicket(session, ticket) {
    lineMemory = { userId: session.userId, ticket: ticket };
    try {
      sessionStorage.setItem(LINE_KEY + saleId, JSON.stringify(lineMemory));
    } catch (e) {
      // Storage refused (private mode quotas): the place lasts until the page is left; joining again gives it back.
    }
  }

  function forgetTicket() {
    lineMemory = null;
    try {
      sessionStorage.removeItem(LINE_KEY + saleId);
    } catch (e) {
      // Nothing kept.
    }
  }

  /** The purchase's extra header: a waiting-room sale is bought with the shopper's ticket. */
  function lineHeaders(session) {
    const ticket = hasLine() ? ticketFor(session) : null;
    return ticket ? { 'X-Line-Ticket': ticket } : null;
  }

  /** Whether the shopper may buy now: admitted, and the turn not over on the server's clock. */
  function lineAdmitted() {
    return !!line && line.code === 'ADMITTED' && S.instant(line.body.admittedUntil) > S.clock.now();
  }

  /**
   * Whether a protected sale should get its path ready now: always without a line; with one once the shopper is
   * admitted, next in line, or expected within PREPARE_WITHIN_S (a path solved too early would lapse unused).
   */
  function turnNear() {
    if (!hasLine()) {
      return true;
    }
    if (!line) {
      return false;
    }
    if (line.code === 'ADMITTED') {
      return true;
    }
    const b = line.body;
    return line.code === 'IN_LINE' && b.position != null
      && (b.ahead === 0 || (b.etaSeconds != null && b.etaSeconds <= PREPARE_WITHIN_S));
  }

  function stopLine() {
    clearTimeout(lineTimer);
    lineTimer = null;
  }

  /** Runs fn (a join or a poll) in ms, unless the shopper signs out meanwhile. */
  function lineIn(ms, fn) {
    stopLine();
    const mine = generation;
    lineTimer = setTimeout(function () {
      if (mine === generation) {
        fn();
      }
    }, Math.max(0, ms));
  }

  /**
   * Starts or resumes the shopper's line (on load, on sign-in): a poll with the ticket this tab holds, or a join,
   * counted down to the opening when the line is not open yet. Nothing when the shopper holds an order already.
   */
  function lineStart() {
    const session = S.session();
    if (!hasLine() || !session || !ui.order.hidden || effectiveState() === 'ENDED' || lineTimer !== null) {
      renderLine();
      return;
    }
    if (ticketFor(session)) {
      poll();
      return;
    }
    const opensAt = S.instant(sale.waitingRoom.opensAt);
    if (opensAt > S.clock.now()) {
      setLine('OPENING', { opensAt: sale.waitingRoom.opensAt });
      lineIn(opensAt - S.clock.now() + spread(), join);
      return;
    }
    join();
  }

  /** A random delay for a join at the opening: up to a tenth of the pre-queue, at most JOIN_SPREAD_MS. */
  function spread() {
    return Math.random() * Math.min(JOIN_SPREAD_MS, sale.waitingRoom.prequeueSeconds * 100);
  }

  async function join() {
    const session = S.session();
    if (!session || !hasLine()) {
      return;
    }
    const mine = generation;
    if (!line || line.code === 'OPENING') {
      setLine('JOINING', {});
    }
    let r;
    try {
      r = await S.api('POST', lineRoute(), session.token);
    } catch (e) {
      r = { status: 0, code: 'NETWORK', body: {}, retryAfter: LINE_RETRY_S };
    }
    if (mine === generation) {
      standing(r, session, join);
    }
  }

  /** Where the shopper stands: asked with the ticket alone, and answered by the edge. */
  async function poll() {
    const session = S.session();
    const ticket = ticketFor(session);
    if (!ticket) {
      join();
      return;
    }
    const mine = generation;
    let r;
    try {
      r = await S.api('GET', lineRoute(), null, { 'X-Line-Ticket': ticket });
    } catch (e) {
      r = { status: 0, code: 'NETWORK', body: {}, retryAfter: LINE_RETRY_S };
    }
    if (mine === generation) {
      standing(r, session, poll);
    }
  }

  /** Acts on a join's or a poll's answer; `again` is the request to repeat after a failure. */
  function standing(r, session, again) {
    stopLine();
    if (typeof r.body.ticket === 'string' && r.status === 200) {
      keepTicket(session, r.body.ticket);
    }
    lineNote = '';
    switch (r.code) {
      case 'IN_LINE':
      case 'WAITLIST':
        lineRejoined = false;
        setLine(r.code, r.body);
        lineIn(nextPoll(r.body), poll);
        getReady();
        return;
      case 'ADMITTED':
        lineRejoined = false;
        setLine(r.code, r.body);
        // Nothing to ask until the turn is over; then one poll says whether it lapsed (or the shopper bought).
        lineIn(S.instant(r.body.admittedUntil) - S.clock.now() + 1000, poll);
        getReady();
        return;
      case 'NOT_STARTED': {
        // The line opens later than this page's clock said: join again when the service says it opens.
        const seconds = Number.isFinite(r.retryAfter) && r.retryAfter > 0 ? r.retryAfter : 1;
        setLine('OPENING', { opensAt: r.body.opensAt || sale.waitingRoom.opensAt });
        lineIn(seconds * 1000 + spread(), join);
        return;
      }
      case 'ALREADY_PURCHASED':
        line = null;
        if (phase === 'idle' && ui.order.hidden) {
          say('YOURS', 'You bought this item. Here is your order.');
        }
        showOrder(r.body.orderId, null);
        return;
      case 'SOLD_OUT':
        soldOut = true;
        setLine(r.code, r.body);
        findMyOrder('YOURS', 'It is sold out, and one of the units is yours. Here is your order.');
        return;
      case 'ADMISSION_LAPSED':
        setLine(r.code, r.body);
        findMyOrder('YOURS', 'You bought this item. Here is your order.');
        return;
      case 'SALE_ENDED':
        ended = true;
        setLine(r.code, r.body);
        return;
      case 'TICKET_INVALID':
      case 'TICKET_EXPIRED':
        // A ticket this tab kept that the line refuses (another sale's secret, a stale copy): joining again gives
        // the shopper's own place back. Once; a second refusal waits like any failure.
        forgetTicket();
        if (!lineRejoined) {
          lineRejoined = true;
          join();
          return;
        }
        break;
      case 'UNAUTHENTICATED':
        S.signOut();
        say('UNAUTHENTICATED', 'Your sign-in has expired. Please sign in again to join the line.');
        return;
      case 'NO_LINE':
        // The sale has no waiting room after all (an older page of a changed sale): buy it directly.
        sale.waitingRoom = null;
        line = null;
        renderLine();
        render();
        getReady();
        return;
      case 'SALE_NOT_FOUND':
        notFound();
        return;
      default:
        break;
    }
    // Busy (429, 503), no answer, or an answer this page does not know: the place is kept; ask again later.
    const seconds = Number.isFinite(r.retryAfter) && r.retryAfter > 0 ? r.retryAfter : LINE_RETRY_S;
    lineNote = (r.code === 'NETWORK' ? 'The shop cannot be reached just now' : 'The line could not be checked just now')
      + ': this page asks again in ' + seconds + ' s. Your place is kept.';
    if (!line) {
      setLine('JOINING', {});
    } else {
      renderLine();
    }
    lineIn(seconds * 1000, ticketFor(session) ? poll : again);
  }

  /** When to poll next: refreshSeconds (plus a little spread), and just after the draw when it comes sooner. */
  function nextPoll(body) {
    const seconds = Number.isInteger(body.refreshSeconds) && body.refreshSeconds > 0 ? body.refreshSeconds : 2;
    let ms = S.jitter(seconds * 1000);
    const draw = S.instant(body.drawAt);
    if (!isNaN(draw)) {
      const toDraw = draw - S.clock.now();
      if (toDraw > 0) {
        ms = Math.min(ms, toDraw + S.jitter(500));
      }
    }
    return ms;
  }

  function setLine(code, body) {
    line = { code: code, body: body || {} };
    renderLine();
    render();
  }

  /** A server instant as the shopper's local time of day ("14:05:09"), with the date when it is not today. */
  function clockTime(iso) {
    const d = new Date(S.instant(iso));
    const time = d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    const today = new Date(S.clock.now());
    return d.toDateString() === today.toDateString() ? time
      : d.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short' }) + ', ' + time;
  }

  function people(n, approximate) {
    if (n === 0) {
      return 'nobody: you are next';
    }
    return (approximate ? 'about ' : '') + count.format(n) + (n === 1 ? ' person' : ' people');
  }

  function wait(seconds) {
    if (seconds == null) {
      return 'not known yet (nobody was let in during the last few seconds)';
    }
    if (seconds < 60) {
      return 'less than a minute';
    }
    const minutes = Math.round(seconds / 60);
    return minutes < 120 ? 'about ' + minutes + ' min' : 'about ' + Math.round(minutes / 60) + ' h';
  }

  function setText(node, text) {
    // Only a changed text is written: the region is aria-live, and a rewrite of the same words is read out again.
    if (node.textContent !== text) {
      node.textContent = text;
    }
  }

  /** The waiting room panel: what the line said last, in words. */
  function renderLine() {
    const show = hasLine() && ui.order.hidden;
    ui.line.hidden = !show;
    if (!show) {
      clearTimeout(lineTick);
      return;
    }
    const room = sale.waitingRoom;
    const code = line ? line.code : null;
    const b = line ? line.body : {};
    ui.line.dataset.code = code || '';
    let status;
    let note = '';
    let place = false;
    switch (code) {
      case 'OPENING':
        status = 'The line opens at ' + clockTime(b.opensAt) + ', before the sale starts.';
        note = 'Keep this page open: it joins the line for you when it opens. Everyone who joins before the start'
          + ' gets a place drawn at random, so there is no need to rush.';
        break;
      case 'JOINING':
        status = 'Joining the line…';
        break;
      case 'IN_LINE':
        if (b.position == null) {
          status = 'You are in the line. Places are drawn at random when the sale starts, at '
            + clockTime(b.drawAt) + '.';
          note = 'Everyone who joins before then has the same chance, however early they came. Keep this page'
            + ' open: it shows your place after the draw.';
        } else {
          // approximate: a pre-queue place estimated from the ticket between two of the line's updates.
          status = 'You are ' + (b.approximate ? 'about ' : '') + 'number ' + count.format(b.position)
            + ' in the line.';
          note = 'Keep this page open: the buy button turns on when it is your turn.';
          place = true;
        }
        break;
      case 'ADMITTED':
        status = 'It is your turn! Buy before ' + clockTime(b.admittedUntil) + '.';
        note = 'After that your turn passes to the next in line.';
        break;
      case 'WAITLIST':
        status = 'Sold out for now, but ' + count.format(b.returning) + (b.returning === 1 ? ' unit' : ' units')
          + ' may come back if not paid for by ' + clockTime(b.returnBy) + '. You are '
          + (b.approximate ? 'about ' : '') + 'number ' + count.format(b.position) + ' on the waiting list.';
        note = 'Each unit that comes back goes to the next in line. Keep this page open.';
        place = true;
        break;
      case 'SOLD_OUT':
        status = 'Sold out: every unit has been sold, and none can come back.';
        break;
      case 'ADMISSION_LAPSED':
        status = 'Your turn came and went: the time to buy ran out, and the unit went to the next in line.';
        note = 'There is one place per shopper, and yours has been used.';
        break;
      case 'SALE_ENDED':
        status = 'This sale has ended.';
        break;
      default: {
        // Nothing asked yet (signed out, or the shopper's order is being looked for): the room's rules.
        const now = S.clock.now();
        const state = effectiveState();
        if (state === 'ENDED') {
          status = 'This sale has ended.';
        } else if (now < S.instant(room.opensAt)) {
          status = 'This sale has a waiting room. The line opens at ' + clockTime(room.opensAt)
            + '; everyone who joins before the start, at ' + clockTime(sale.startsAt)
            + ', gets a place drawn at random, so there is no need to rush.';
        } else if (now < S.instant(sale.startsAt)) {
          status = 'This sale has a waiting room, open now. Everyone who joins before the start, at '
            + clockTime(sale.startsAt) + ', gets a place drawn at random.';
        } else {
          status = 'This sale has a waiting room: shoppers are let in to buy in the order of the line.';
        }
        note = S.session() || state === 'ENDED' ? '' : 'Sign in above to join the line.';
      }
    }
    setText(ui.lineStatus, status);
    setText(ui.lineNote, lineNote || note);
    ui.linePlace.hidden = !place;
    ui.lineProgress.hidden = !place;
    if (place) {
      ui.linePosition.textContent = (b.approximate ? 'about ' : '') + count.format(b.position);
      ui.lineAhead.textContent = people(b.ahead, b.approximate);
      ui.lineEtaRow.hidden = code !== 'IN_LINE';
      ui.lineEta.textContent = code === 'IN_LINE' ? wait(b.etaSeconds) : '';
      // How far the line has come towards the shopper: the share of those in front who were let in already.
      const before = b.position - 1;
      const moved = before > 0 ? Math.min(1, Math.max(0, (before - b.ahead) / before)) : 1;
      ui.lineBar.value = moved;
      ui.lineBarText.textContent = moved >= 1 ? 'Everyone in front of you has been let in.'
        : 'The line has moved ' + Math.floor(moved * 100) + ' % of the way to you.';
    }
    tickLine();
  }

  /** The panel's countdown: to the opening, the draw, or the end of the turn; ticks on the server's clock. */
  function tickLine() {
    clearTimeout(lineTick);
    const code = line ? line.code : null;
    const b = line ? line.body : {};
    let target = NaN;
    let before = '';
    let after = '';
    if (code === 'OPENING') {
      target = S.instant(b.opensAt);
      before = 'The line opens in ';
      after = 'The line is opening…';
    } else if (code === 'IN_LINE' && b.position == null) {
      target = S.instant(b.drawAt);
      before = 'Places are drawn in ';
      after = 'Drawing the places…';
    } else if (code === 'ADMITTED') {
      target = S.instant(b.admittedUntil);
      before = 'Your turn ends in ';
      after = 'Your turn is over.';
    }
    if (isNaN(target)) {
      setText(ui.lineTimer, '');
      return;
    }
    const left = target - S.clock.now();
    ui.lineTimer.textContent = left > 0 ? before + S.duration(left) : after;
    if (left > 0) {
      lineTick = S.tickTowards(target, function () {
        tickLine();
        render(); // the buy button goes off with the end of the turn
      });
    }
  }

  // ---- the order: found on the server (GET /api/sales/{id}/order), so any tab or device of the shopper sees it

  /** Asks the server for the shopper's order in this sale; shows it when there is one. */
  async function findMyOrder(outcome, text) {
    const session = S.session();
    if (!session) {
      return;
    }
    const mine = generation;
    let r;
    try {
      r = await S.api('GET', '/api/sales/' + encodeURIComponent(saleId) + '/order', session.token);
    } catch (e) {
      return; // no answer: the next purchase answer or sale read brings the order back
    }
    if (mine !== generation || r.status !== 200 || !r.body.orderId) {
      return;
    }
    if (outcome && (phase === 'idle' || phase === 'polling') && ui.order.hidden) {
      say(outcome, text);
    }
    showOrder(r.body.orderId, r.body);
  }

  /** Shows an order: from an answer that has its status and payBy, or (null) to be read from the server. */
  function showOrder(orderId, known) {
    if (ui.order.dataset.orderId !== orderId) {
      payKey = null;
      ui.payStatus.textContent = '';
      ui.payStatus.dataset.outcome = '';
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
    phase = 'polling';
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

  /** The pay button and the countdown to payBy (on the server's clock), while the order is CONFIRMED. */
  function renderPayment() {
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
    const mine = generation;
    try {
      const r = await S.api('GET', '/api/orders/' + encodeURIComponent(orderId), session.token);
      if (mine !== generation) {
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
  function orderDone(status, payBy) {
    phase = 'idle';
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

  // ---- paying: one Idempotency-Key per order on this page, the same for every retry of that payment

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

  function pay() {
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
    const mine = generation;
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
    if (mine !== generation) {
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

  // ---- wiring

  S.onAccountChange(function (session) {
    if (!session) {
      // Signing out stops what this page was doing for the previous shopper.
      generation += 1;
      clearTimeout(retryTimer);
      clearTimeout(pollTimer);
      clearTimeout(payTimer);
      clearTimeout(payRetryTimer);
      paying = false;
      purchasePath = null;
      preparing = null;
      if (worker) {
        worker.terminate();
        worker = null;
      }
      ui.proof.hidden = true;
      ui.retry.textContent = '';
      phase = 'idle';
      ui.order.hidden = true;
      ui.order.dataset.orderId = '';
      say('', '');
      sayPay('', '');
      stopLine();
      forgetTicket();
      line = null;
      lineNote = '';
      lineRejoined = false;
      renderLine();
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
}());
