/*
 * The proof of work of a protected sale, in a Web Worker so the page stays responsive while it runs.
 *
 * In:  { salt, bits }. Out: { progress: tried, rate } about every 100 ms, then { nonce, tried, rate }.
 * A solution is a decimal nonce such that SHA-256(UTF-8 of salt + ":" + nonce) begins with `bits` zero bits
 * (docs/contract.md, "Protected sales"). crypto.subtle answers one digest per promise, so the worker keeps a batch
 * in flight at once: one digest at a time would spend most of its time waiting for the promise, not hashing.
 */
'use strict';

const BATCH = 256;
const PROGRESS_MS = 100;
const encoder = new TextEncoder();

function leadingZeroBits(digest, bits) {
  const bytes = new Uint8Array(digest);
  const whole = bits >> 3;
  for (let i = 0; i < whole; i++) {
    if (bytes[i] !== 0) {
      return false;
    }
  }
  const rest = bits & 7;
  return rest === 0 || (bytes[whole] >> (8 - rest)) === 0;
}

async function solve(salt, bits) {
  const prefix = salt + ':';
  const started = performance.now();
  let reported = started;
  let nonce = 0;
  for (;;) {
    const digests = [];
    for (let i = 0; i < BATCH; i++) {
      digests.push(crypto.subtle.digest('SHA-256', encoder.encode(prefix + (nonce + i))));
    }
    const done = await Promise.all(digests);
    for (let i = 0; i < BATCH; i++) {
      if (leadingZeroBits(done[i], bits)) {
        const tried = nonce + i + 1;
        return { nonce: String(nonce + i), tried: tried, rate: rate(tried, started) };
      }
    }
    nonce += BATCH;
    const now = performance.now();
    if (now - reported >= PROGRESS_MS) {
      reported = now;
      self.postMessage({ progress: nonce, rate: rate(nonce, started) });
    }
  }
}

function rate(tried, started) {
  const ms = performance.now() - started;
  return ms > 0 ? Math.round(tried * 1000 / ms) : 0;
}

self.onmessage = function (e) {
  solve(String(e.data.salt), Number(e.data.bits)).then(function (found) {
    self.postMessage(found);
  }, function (err) {
    self.postMessage({ error: String(err && err.message ? err.message : err) });
  });
};
