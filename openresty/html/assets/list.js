/*
 * The sale list (index.html): every current sale with its price, stock and a countdown on the server's clock.
 * The list is read every ~5 s (the edge micro-caches it, so an open page costs the service nothing); the
 * countdowns move every second in between. A sale with a waiting room says so, in a line of its own.
 */
import * as S from '/assets/seckill.js';

const REFRESH_MS = 5000;
const RETRY_MS = 3000;

let sales = [];
let tickTimer = null;

const list = document.getElementById('sales');
const message = document.getElementById('list-status');

function item(sale) {
  const li = document.createElement('li');
  li.className = 'card';
  li.dataset.saleId = sale.id;
  li.dataset.testid = 'sale-item';

  const title = document.createElement('h2');
  const link = document.createElement('a');
  link.href = 'sale.html?id=' + encodeURIComponent(sale.id);
  link.textContent = sale.name;
  title.appendChild(link);

  const facts = document.createElement('p');
  facts.className = 'facts';
  const price = document.createElement('span');
  price.className = 'price';
  price.textContent = S.price(sale.priceCents);
  const badge = document.createElement('span');
  badge.className = 'badge';
  const stock = document.createElement('span');
  stock.className = 'stock';
  facts.append(price, ' ', badge, ' ', stock);

  const when = document.createElement('p');
  when.className = 'countdown';

  li.append(title, facts, when);
  if (sale.waitingRoom) {
    const room = document.createElement('p');
    room.className = 'room';
    room.textContent = roomText(sale.waitingRoom);
    li.append(room);
  }
  return li;
}

/** A waiting room in a few words (docs/waiting-room.md): when its line opens, and that arriving early wins nothing. */
function roomText(room) {
  const s = room.prequeueSeconds;
  if (s === 0) {
    return 'Waiting room: from the start, shoppers are let in to buy in the order they join the line.';
  }
  const before = s % 3600 === 0 ? s / 3600 + ' h' : s >= 60 ? Math.round(s / 60) + ' min' : s + ' s';
  return 'Waiting room: the line opens ' + before + ' before the start, and places in it are drawn at random.';
}

/** Writes the parts that move with time (state, stock words, countdown) into the list items. */
function tick() {
  const now = S.clock.now();
  let next = Infinity;
  sales.forEach(function (sale, i) {
    const li = list.children[i];
    const state = S.stateAt(sale, now);
    li.dataset.state = state;
    const badge = li.querySelector('.badge');
    badge.textContent = S.STATE_LABEL[state];
    badge.dataset.state = state;
    li.querySelector('.stock').textContent = S.stockText(sale, state);
    li.querySelector('.countdown').textContent = S.countdownText(sale, state, now);
    if (state === 'UPCOMING') {
      next = Math.min(next, S.instant(sale.startsAt));
    } else if (state === 'ACTIVE') {
      next = Math.min(next, S.instant(sale.endsAt));
    }
  });
  clearTimeout(tickTimer);
  tickTimer = S.tickTowards(next === Infinity ? S.clock.now() + 1000 : next, tick);
}

function render() {
  list.replaceChildren.apply(list, sales.map(item));
  message.textContent = sales.length === 0 ? 'No sales right now. Check back soon.' : '';
  list.setAttribute('aria-busy', 'false');
  tick();
}

async function load() {
  let delay = REFRESH_MS;
  try {
    const r = await S.api('GET', '/api/sales');
    if (r.status === 200 && Array.isArray(r.body.sales)) {
      sales = r.body.sales;
      render();
    } else {
      message.textContent = 'The sales could not be loaded just now; trying again.';
      delay = Number.isFinite(r.retryAfter) ? Math.max(r.retryAfter * 1000, RETRY_MS) : RETRY_MS;
    }
  } catch (e) {
    message.textContent = 'The shop cannot be reached just now; trying again.';
    delay = RETRY_MS;
  }
  setTimeout(load, S.jitter(delay));
}

load();
