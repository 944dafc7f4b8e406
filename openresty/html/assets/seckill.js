/*
 * Seckill sale pages, shared part: the API client, the server's clock, the demo sign-in and formatting.
 * No build step and no dependencies: native ES modules. Modules import each other by their plain /assets/... path;
 * the page's import map (written by ../install.sh when the page is installed) maps each path to the file's
 * content-hashed name, which the edge caches a year.
 */

const SESSION_KEY = 'seckill.session';
// The session when sessionStorage refuses to keep it, and who wants to hear of sign-in and sign-out.
let memory = null;
const listeners = [];

/** Seconds in a Retry-After header (delta-seconds or an HTTP date), or NaN when absent or unreadable. */
function retryAfterSeconds(header, body) {
  if (header != null && /^\s*\d+\s*$/.test(header)) {
    return parseInt(header, 10);
  }
  const date = Date.parse(header || '');
  if (!isNaN(date)) {
    return Math.max(0, Math.ceil((date - clock.now()) / 1000));
  }
  return body && Number.isInteger(body.retryAfter) ? body.retryAfter : NaN;
}

/**
 * One request to the API. Resolves to {status, code, body, retryAfter, receivedAt} for every HTTP answer
 * (clients act on the body's code); rejects only when no answer came (network failure). `extra` adds headers
 * (the payment's Idempotency-Key); `json`, when given, is sent as the JSON body (a protected sale's path).
 */
export async function api(method, path, token, extra, json) {
  const headers = Object.assign({ Accept: 'application/json' }, extra || {});
  if (token) {
    headers.Authorization = 'Bearer ' + token;
  }
  const init = { method: method, headers: headers, credentials: 'same-origin' };
  if (json !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(json);
  }
  const response = await fetch(path, init);
  const receivedAt = performance.now();
  let body = null;
  try {
    body = await response.json();
  } catch (e) {
    body = null; // an answer without a JSON body: acted on by status alone
  }
  const serverTime = body && typeof body.serverTime === 'string' ? body.serverTime : null;
  clock.observe(serverTime, response.headers.get('Date'), receivedAt);
  return {
    status: response.status,
    code: body && typeof body.code === 'string' ? body.code : '',
    body: body || {},
    retryAfter: retryAfterSeconds(response.headers.get('Retry-After'), body),
    receivedAt: receivedAt,
  };
}

/** POST with a JSON body (the sign-in). */
async function postJson(path, value) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(value),
  });
  let body = {};
  try {
    body = await response.json();
  } catch (e) {
    body = {};
  }
  return { status: response.status, code: body.code || '', body: body };
}

/** An ISO instant in milliseconds; the service writes nanoseconds, Date.parse is specified for milliseconds. */
export function instant(iso) {
  return typeof iso === 'string' ? Date.parse(iso.replace(/(\.\d{3})\d+/, '$1')) : NaN;
}

/*
 * The server's clock as seen from this page. Every answer gives a lower bound on the server's time at the moment
 * it arrived: its serverTime (up to about a second old when the edge's micro-cache answered) and its Date header
 * (the edge's own clock, whole seconds, never cached). The tightest bound seen so far wins. Local time is
 * performance.now(), which is monotonic: changing the computer's clock does not move the countdown. Until the
 * first answer the browser's clock stands in.
 */
export const clock = {
  offset: null,
  observe: function (serverTime, dateHeader, receivedAt) {
    const candidates = [instant(serverTime), Date.parse(dateHeader || '')].filter(function (t) { return !isNaN(t); });
    if (candidates.length === 0) {
      return;
    }
    const offset = Math.max.apply(null, candidates) - receivedAt;
    if (this.offset === null || offset > this.offset) {
      this.offset = offset;
    }
  },
  now: function () {
    return this.offset === null ? Date.now() : performance.now() + this.offset;
  },
};

/**
 * A sale's state at the server's time `now`. The answer may be a second stale (micro-cache), so the window is
 * judged on the clock: a sale that said UPCOMING is ACTIVE once its start has passed.
 */
export function stateAt(sale, now) {
  if (now < instant(sale.startsAt)) {
    return 'UPCOMING';
  }
  if (now >= instant(sale.endsAt)) {
    return 'ENDED';
  }
  return sale.state === 'SOLD_OUT' || sale.remaining === 0 ? 'SOLD_OUT' : 'ACTIVE';
}

export const STATE_LABEL = { UPCOMING: 'Starting soon', ACTIVE: 'On sale now', SOLD_OUT: 'Sold out', ENDED: 'Ended' };

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export function price(cents) {
  return money.format(cents / 100);
}

/** Whole seconds left as "1 d 02:03:04" or "02:03:04" (rounded up: "00:00:01" until the very moment). */
export function duration(ms) {
  let s = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(s / 86400);
  s -= days * 86400;
  const two = function (n) { return String(n).padStart(2, '0'); };
  const hms = two(Math.floor(s / 3600)) + ':' + two(Math.floor((s % 3600) / 60)) + ':' + two(s % 60);
  return days > 0 ? days + ' d ' + hms : hms;
}

/** What a sale has left, in words. `remaining` is approximate and may be null when the service cannot say. */
export function stockText(sale, state) {
  const total = sale.stockTotal;
  switch (state) {
    case 'SOLD_OUT': return 'All ' + total + ' sold';
    case 'ENDED': return total + ' were on offer';
    case 'UPCOMING': return total + ' on offer';
    default:
      return typeof sale.remaining === 'number' ? sale.remaining + ' of ' + total + ' left' : total + ' on offer';
  }
}

/** The countdown line: what comes next and when. */
export function countdownText(sale, state, now) {
  switch (state) {
    case 'UPCOMING': return 'Starts in ' + duration(instant(sale.startsAt) - now);
    case 'ACTIVE': return 'Ends in ' + duration(instant(sale.endsAt) - now);
    case 'SOLD_OUT': return 'Nothing left to buy';
    default: return 'This sale has ended';
  }
}

/**
 * Calls fn at the next moment the countdown to `target` crosses a whole second (so "Starts in" reaches zero
 * exactly at the start), and at least once a second. Returns the timer id.
 */
export function tickTowards(target, fn) {
  const left = target - clock.now();
  const step = left > 0 ? (left % 1000 || 1000) : 1000;
  return setTimeout(fn, step + 5);
}

/** A delay with up to 20 % random spread, so many open pages do not refresh in step. */
export function jitter(ms) {
  return Math.round(ms * (1 + Math.random() * 0.2));
}

// ---- the demo session: the token lives in sessionStorage (this tab only, gone when it closes)

function session() {
  try {
    const s = JSON.parse(sessionStorage.getItem(SESSION_KEY));
    return s && typeof s.token === 'string' ? s : null;
  } catch (e) {
    return null;
  }
}

function saveSession(s) {
  try {
    if (s) {
      sessionStorage.setItem(SESSION_KEY, JSON.stringify(s));
    } else {
      sessionStorage.removeItem(SESSION_KEY);
    }
  } catch (e) {
    // Storage refused (private mode quotas): the sign-in then lasts until the page is left.
  }
  memory = s;
}

function current() {
  return session() || memory;
}

export function signOut() {
  saveSession(null);
  renderAccount();
}

export function onAccountChange(fn) {
  listeners.push(fn);
}

const el = function (id) { return document.getElementById(id); };

function renderAccount() {
  const s = current();
  const form = el('signin');
  const who = el('whoami');
  if (!form || !who) {
    return;
  }
  form.hidden = !!s;
  who.hidden = !s;
  el('whoami-name').textContent = s ? s.name : '';
  listeners.forEach(function (fn) { fn(s); });
}

async function signIn(event) {
  event.preventDefault();
  const input = el('signin-name');
  const error = el('signin-error');
  const button = el('signin-submit');
  const name = input.value.trim();
  error.textContent = '';
  if (!name) {
    error.textContent = 'Please enter a name.';
    input.focus();
    return;
  }
  button.disabled = true;
  try {
    const r = await postJson('/api/login', { name: name });
    if (r.status === 200 && r.body.token) {
      saveSession({ token: r.body.token, name: r.body.name, userId: r.body.userId });
      input.value = '';
      renderAccount();
    } else if (r.status === 404) {
      error.textContent = 'Sign-in is not available on this shop.';
    } else {
      error.textContent = r.body.message ? 'Could not sign in: ' + r.body.message + '.' : 'Could not sign in.';
    }
  } catch (e) {
    error.textContent = 'Could not reach the shop. Please try again.';
  } finally {
    button.disabled = false;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const form = el('signin');
  if (form) {
    form.addEventListener('submit', signIn);
    el('signout').addEventListener('click', signOut);
  }
  renderAccount();
});

export { current as session };
