/*
 * The waiting room (docs/waiting-room.md): a sale with a `waitingRoom` sells to a line. The page joins it once the
 * shopper is signed in (after the opening, `opensAt`), keeps the ticket in sessionStorage per sale, so a reload keeps
 * the place, and polls with it (X-Line-Ticket, answered by the edge). What the line said is line-panel.js's to show.
 */
import * as S from '/assets/seckill.js';
import { ui, page, saleId, say } from '/assets/sale/page.js';
import { sale, effectiveState, render, notFound, markSoldOut, markEnded } from '/assets/sale/clock.js';
import { getReady } from '/assets/sale/challenge.js';
import { renderLine } from '/assets/sale/line-panel.js';
import { showOrder, findMyOrder } from '/assets/sale/order.js';

// The ticket's sessionStorage key (+ sale id), the wait after an unanswered join or poll, how soon before the
// expected turn a `challenge` sale's check is solved (a challenge lives 60 s, a path 120 s), and how widely open
// pages spread their joins after the opening (at most a tenth of the pre-queue: its places are drawn at random, so a
// page joining a moment later loses nothing, and the service does not get every join at once).
const LINE_KEY = 'seckill.line.';
const LINE_RETRY_S = 3;
const PREPARE_WITHIN_S = 60;
const JOIN_SPREAD_MS = 5000;

// The shopper's last standing { code, body } (code: an answer's, or OPENING before the line opens, JOINING), a note on
// an unanswered request, the next join or poll, a ticket kept in memory when sessionStorage refuses, and whether a
// refused ticket was already replaced by joining again.
export let line = null;
export let lineNote = '';
let lineTimer = null;
let lineMemory = null;
let lineRejoined = false;

/** Signing out: the line is left to the previous shopper. */
export function resetLine() {
  stopLine();
  forgetTicket();
  line = null;
  lineNote = '';
  lineRejoined = false;
  renderLine();
}

export function hasLine() {
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

export function forgetTicket() {
  lineMemory = null;
  try {
    sessionStorage.removeItem(LINE_KEY + saleId);
  } catch (e) {
    // Nothing kept.
  }
}

/** The purchase's extra header: a waiting-room sale is bought with the shopper's ticket. */
export function lineHeaders(session) {
  const ticket = hasLine() ? ticketFor(session) : null;
  return ticket ? { 'X-Line-Ticket': ticket } : null;
}

/** Whether the shopper may buy now: admitted, and the turn not over on the server's clock. */
export function lineAdmitted() {
  return !!line && line.code === 'ADMITTED' && S.instant(line.body.admittedUntil) > S.clock.now();
}

/**
 * Whether a protected sale should get its path ready now: always without a line; with one once the shopper is
 * admitted, next in line, or expected within PREPARE_WITHIN_S (a path solved too early would lapse unused).
 */
export function turnNear() {
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

export function stopLine() {
  clearTimeout(lineTimer);
  lineTimer = null;
}

/** Runs fn (a join or a poll) in ms, unless the shopper signs out meanwhile. */
export function lineIn(ms, fn) {
  stopLine();
  const mine = page.generation;
  lineTimer = setTimeout(function () {
    if (mine === page.generation) {
      fn();
    }
  }, Math.max(0, ms));
}

/**
 * Starts or resumes the shopper's line (on load, on sign-in): a poll with the ticket this tab holds, or a join,
 * counted down to the opening when the line is not open yet. Nothing when the shopper holds an order already.
 */
export function lineStart() {
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

export async function join() {
  const session = S.session();
  if (!session || !hasLine()) {
    return;
  }
  const mine = page.generation;
  if (!line || line.code === 'OPENING') {
    setLine('JOINING', {});
  }
  let r;
  try {
    r = await S.api('POST', lineRoute(), session.token);
  } catch (e) {
    r = { status: 0, code: 'NETWORK', body: {}, retryAfter: LINE_RETRY_S };
  }
  if (mine === page.generation) {
    standing(r, session, join);
  }
}

/** Where the shopper stands: asked with the ticket alone, and answered by the edge. */
export async function poll() {
  const session = S.session();
  const ticket = ticketFor(session);
  if (!ticket) {
    join();
    return;
  }
  const mine = page.generation;
  let r;
  try {
    r = await S.api('GET', lineRoute(), null, { 'X-Line-Ticket': ticket });
  } catch (e) {
    r = { status: 0, code: 'NETWORK', body: {}, retryAfter: LINE_RETRY_S };
  }
  if (mine === page.generation) {
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
      if (page.phase === 'idle' && ui.order.hidden) {
        say('YOURS', 'You bought this item. Here is your order.');
      }
      showOrder(r.body.orderId, null);
      return;
    case 'SOLD_OUT':
      markSoldOut();
      setLine(r.code, r.body);
      findMyOrder('YOURS', 'It is sold out, and one of the units is yours. Here is your order.');
      return;
    case 'ADMISSION_LAPSED':
      setLine(r.code, r.body);
      findMyOrder('YOURS', 'You bought this item. Here is your order.');
      return;
    case 'SALE_ENDED':
      markEnded();
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
  const ms = S.jitter(seconds * 1000);
  // NaN when the answer names no draw: never above 0.
  const toDraw = S.instant(body.drawAt) - S.clock.now();
  return toDraw > 0 ? Math.min(ms, toDraw + S.jitter(500)) : ms;
}

function setLine(code, body) {
  line = { code: code, body: body || {} };
  renderLine();
  render();
}
