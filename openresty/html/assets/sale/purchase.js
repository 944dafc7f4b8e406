/*
 * The purchase: a click sends exactly one request, and every answer is told in words on the status line. Busy answers
 * (429, 503) and a lost connection are tried again by the page itself once Retry-After seconds have passed, never
 * sooner; a protected sale buys through its path (challenge.js), a waiting-room sale with the line's ticket (line.js).
 */
import * as S from '/assets/seckill.js';
import { ui, page, saleId, say, MAX_RETRIES, NETWORK_RETRY_S } from '/assets/sale/page.js';
import { render, scheduleRefresh, notFound, markSoldOut, markEnded } from '/assets/sale/clock.js';
import { isProtected, pathFor, dropPath } from '/assets/sale/challenge.js';
import { line, hasLine, lineAdmitted, lineIn, join, poll, forgetTicket, lineHeaders } from '/assets/sale/line.js';
import { showOrder, findMyOrder } from '/assets/sale/order.js';

let retries = 0;
let retryTimer = null;
let pathRetried = false; // this click already replaced a refused path

/** Signing out: the retry under way stops and the status line empties. */
export function resetPurchase() {
  clearTimeout(retryTimer);
  ui.retry.textContent = '';
  page.phase = 'idle';
  say('', '');
}

export function buy() {
  if (ui.buy.disabled || page.phase !== 'idle') {
    return;
  }
  retries = 0;
  pathRetried = false;
  attempt();
}

async function attempt() {
  const session = S.session();
  if (!session) {
    page.phase = 'idle';
    say('UNAUTHENTICATED', 'Please sign in to buy.');
    render();
    return;
  }
  const mine = page.generation;
  page.phase = 'sending';
  ui.retry.textContent = '';
  say('SENDING', 'Sending your order…');
  render();
  let r;
  try {
    let route = '/api/sales/' + encodeURIComponent(saleId) + '/purchase';
    if (isProtected()) {
      const ready = await pathFor(session);
      if (mine !== page.generation) {
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
  if (mine !== page.generation) {
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
      page.phase = 'idle';
      markSoldOut();
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
      page.phase = 'idle';
      markEnded();
      say('SALE_ENDED', 'Sorry, this sale has ended.');
      return;
    case 'NOT_STARTED':
      notStarted(r);
      return;
    case 'UNAUTHENTICATED':
      page.phase = 'idle';
      S.signOut();
      say('UNAUTHENTICATED', 'Your sign-in has expired. Please sign in again, then buy.');
      return;
    case 'SALE_NOT_FOUND':
      page.phase = 'idle';
      notFound();
      say('SALE_NOT_FOUND', 'There is no such sale.');
      return;
    case 'NOT_ADMITTED': {
      // The line has not admitted this ticket (yet, or any more): its next poll says where the shopper stands.
      page.phase = 'idle';
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
      page.phase = 'idle';
      forgetTicket();
      say('NOT_ADMITTED', 'Your place in the line had to be checked again. One moment…');
      lineIn(0, join);
      return;
    case 'PATH_INVALID':
    case 'PATH_REQUIRED':
      // The path lapsed or is not this shopper's: a new one, once per click (a second refusal is an error).
      dropPath();
      if (!pathRetried) {
        pathRetried = true;
        attempt();
        return;
      }
      page.phase = 'idle';
      say('ERROR', 'Your purchase link was refused. Please try again.');
      return;
    default:
      if (r.status === 429 || r.status === 503 || r.code === 'RATE_LIMITED' || r.code === 'UNAVAILABLE'
          || r.code === 'NETWORK') {
        queue(r);
        return;
      }
      page.phase = 'idle';
      say('ERROR', 'Something went wrong' + (r.body.message ? ': ' + r.body.message : '') + '. Please try again.');
  }
}

/** 429 or 503: wait exactly Retry-After seconds (measured on the monotonic clock), then try again by itself. */
function queue(r) {
  retries += 1;
  if (retries > MAX_RETRIES) {
    page.phase = 'idle';
    say('GAVE_UP', 'The shop is still too busy. Please try again in a little while.');
    return;
  }
  const seconds = Number.isFinite(r.retryAfter) && r.retryAfter > 0 ? r.retryAfter : 1;
  const due = r.receivedAt !== undefined ? r.receivedAt + seconds * 1000 : performance.now() + seconds * 1000;
  page.phase = 'waiting';
  // Honest: nobody is queued here, the page only waits as it was told (a waiting room's line is told apart).
  say('RETRYING', r.code === 'NETWORK'
    ? 'The shop cannot be reached just now: this page tries again for you in ' + seconds + ' s.'
    : 'Busy: the shop is taking many orders right now. This page tries again for you in ' + seconds + ' s.');
  waitUntil(due, attempt);
}

/** Calls fn once performance.now() >= due, showing the seconds left; timers never run it early. */
function waitUntil(due, fn) {
  clearTimeout(retryTimer);
  const mine = page.generation;
  const step = function () {
    if (mine !== page.generation) {
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
  page.phase = 'blocked';
  say('NOT_STARTED', 'The sale has not started yet. The button turns on again in ' + seconds + ' s.');
  waitUntil(r.receivedAt + seconds * 1000, function () {
    page.phase = 'idle';
    scheduleRefresh(0);
    render();
  });
}
