/*
 * The waiting room's panel: what the line said last (line.js), in words, in its own aria-live region, with a
 * countdown to the opening, the draw or the end of the turn on the server's clock: before the draw when places are
 * drawn (`drawAt`); then the place, the people ahead, the estimated wait and how far the line has moved towards the
 * shopper; WAITLIST, SOLD_OUT, ADMISSION_LAPSED and SALE_ENDED as they come.
 */
import * as S from '/assets/seckill.js';
import { ui } from '/assets/sale/page.js';
import { sale, effectiveState, render } from '/assets/sale/clock.js';
import { line, lineNote, hasLine } from '/assets/sale/line.js';

const count = new Intl.NumberFormat('en-US');
let lineTick = null; // the countdown's next tick

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
export function renderLine() {
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
