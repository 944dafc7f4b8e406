/*
 * Protected sales: a sale whose `protection` is `path` or `challenge` is bought through a purchase path. Once the sale
 * is on and the shopper signed in, the page gets one ahead of the click: for a `challenge` sale it fetches a challenge
 * and solves it in a Web Worker (/assets/pow.js) with a progress bar, then asks for the path; for a `path` sale it asks
 * at once. The click buys through the path, waiting for it if it is not ready yet: still one click.
 */
import * as S from '/assets/seckill.js';
import { ui, saleId } from '/assets/sale/page.js';
import { sale, effectiveState } from '/assets/sale/clock.js';
import { turnNear } from '/assets/sale/line.js';

// A path this close to its expiry (server clock) is replaced rather than risked on a purchase.
const PATH_MARGIN_MS = 5000;
// Challenges fetched in a row for one path when the previous one lapsed or was used (another tab) meanwhile.
const CHALLENGE_ATTEMPTS = 3;
// The worker's own name is content-hashed at install like every asset: the page's import map knows it.
const POW_WORKER = import.meta.resolve('/assets/pow.js');

let purchasePath = null; // a protected sale's path for this shopper: { path, expiresAt, token }
let preparing = null; // the path under way: { token, promise }
let worker = null; // the proof of work under way

/** The path was refused (lapsed, or not this shopper's): the next purchase fetches a new one. */
export function dropPath() {
  purchasePath = null;
}

/** Signing out: the path and the proof of work under way are the previous shopper's. */
export function resetChallenge() {
  purchasePath = null;
  preparing = null;
  if (worker) {
    worker.terminate();
    worker = null;
  }
  ui.proof.hidden = true;
}

export function isProtected() {
  return !!sale && (sale.protection === 'path' || sale.protection === 'challenge');
}

/** Gets a path ahead of the click once the sale is on and the shopper signed in; its failures wait for the click. */
export function getReady() {
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
export function pathFor(session) {
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
