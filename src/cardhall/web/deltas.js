// Deltas (docs/protocol.md, "Deltas"): the port of cardhall/games/deltas.py. After a
// table's first full `state`, each change is a `delta` whose events, applied to the last
// view, give the new one, its hash checked. One that does not rebuild asks for a
// `resync`, and later deltas are dropped until the full state comes. A refused resync is
// asked again after a doubling wait; after RESYNC_TRIES the socket reconnects instead.

/** Errors a resync may be refused with (errors name no request: one that comes while a
 * resync is pending counts as its refusal). */
export const RESYNC_REFUSALS = new Set(["rate_limited", "unknown_table"]);
/** Refusals of a table's resync before the client reconnects instead. */
export const RESYNC_TRIES = 4;
/** Milliseconds before a refused resync is asked again the first time (then doubled). */
export const RESYNC_WAIT = 250;

/**
 * @typedef {{set?: Object<string, *>, unset?: string[], extend?: Object<string, Array<*>>,
 *   patch?: Object<string, Diff>}} Diff
 * @typedef {{type: string} & Diff} Event
 */

/** `old` changed by `diff` (a new object; `old` is kept). @param {Object} old @param {Diff} diff */
export function applyPatch(old, diff) {
  const out = { ...old };
  for (const key of diff.unset || []) delete out[key];
  for (const [key, value] of Object.entries(diff.set || {})) out[key] = value;
  for (const [key, tail] of Object.entries(diff.extend || {})) out[key] = [...out[key], ...tail];
  for (const [key, sub] of Object.entries(diff.patch || {})) {
    const before = out[key];
    const base = before && typeof before === "object" && !Array.isArray(before) ? before : {};
    out[key] = applyPatch(base, sub);
  }
  return out;
}

/** The next view from the previous one and a change's events (only `view` events change
 * it; the others tell the story). @param {Object} view @param {Event[]} events */
export function applyEvents(view, events) {
  let out = view;
  for (const event of events) if (event.type === "view") out = applyPatch(out, event);
  return out;
}

/** Canonical JSON: keys sorted, no spaces, whole numbers without a fraction. @param {*} v */
export function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

// SHA-256's constants: the fractions of the square roots (H) and cube roots (K) of the
// first primes, computed once.
const H0 = [];
const K = [];
for (let c = 2, n = 0; n < 64; c++) {
  let prime = true;
  for (let d = 2; d * d <= c; d++) if (c % d === 0) prime = false;
  if (!prime) continue;
  if (n < 8) H0[n] = (Math.pow(c, 1 / 2) * 2 ** 32) | 0;
  K[n++] = (Math.pow(c, 1 / 3) * 2 ** 32) | 0;
}

const rot = (x, n) => (x >>> n) | (x << (32 - n));

/** SHA-256 of bytes, in hex (synchronous: crypto.subtle is async and https-only). */
export function sha256(/** @type {Uint8Array} */ bytes) {
  const size = ((bytes.length + 9 + 63) >> 6) << 6;
  const buf = new Uint8Array(size);
  buf.set(bytes);
  buf[bytes.length] = 0x80;
  const data = new DataView(buf.buffer);
  data.setUint32(size - 8, Math.floor(bytes.length / 2 ** 29));
  data.setUint32(size - 4, (bytes.length * 8) >>> 0);
  const h = H0.slice();
  const w = new Int32Array(64);
  for (let at = 0; at < size; at += 64) {
    for (let i = 0; i < 16; i++) w[i] = data.getInt32(at + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rot(w[i - 15], 7) ^ rot(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rot(w[i - 2], 17) ^ rot(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (k + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
      const t2 = ((rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      k = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    [a, b, c, d, e, f, g, k].forEach((x, i) => { h[i] = (h[i] + x) | 0; });
  }
  return h.map((x) => (x >>> 0).toString(16).padStart(8, "0")).join("");
}

/** A view's hash: the first 16 hex digits of the SHA-256 of its canonical JSON. */
export function viewHash(view) {
  return sha256(new TextEncoder().encode(canonical(view))).slice(0, 16);
}

/** The last state of each table, and the `state` each delta stands for. */
export class Deltas {
  constructor() {
    /** @type {Map<string, Object>} */
    this.last = new Map();
    /** @type {Set<string>} tables whose full state was asked for */
    this.resyncing = new Set();
    /** @type {Map<string, number>} refusals of each pending resync so far */
    this.refusals = new Map();
    this.applied = 0;
    this.resyncs = 0;
  }

  /** A new connection: its hello brings every table's full state. */
  reset() {
    this.resyncing.clear();
    this.refusals.clear();
  }

  /** The player left `table` (a `left`): nothing of it is kept or awaited. */
  forget(table) {
    this.last.delete(table);
    this.resyncing.delete(table);
    this.refusals.delete(table);
  }

  /**
   * An `error` came: if it may be a pending resync's refusal, what to do about it:
   * `{reconnect: true}` after RESYNC_TRIES refusals of one, else `{retry: tables, wait}`
   * (ask again after `wait` ms those still pending then); null when it is not one.
   * @param {{code: string}} msg @returns {{reconnect?: boolean, retry?: string[], wait?: number} | null}
   */
  refused(msg) {
    if (!RESYNC_REFUSALS.has(msg.code) || this.resyncing.size === 0) return null;
    let most = 0;
    for (const table of this.resyncing) {
      const tries = (this.refusals.get(table) || 0) + 1;
      this.refusals.set(table, tries);
      most = Math.max(most, tries);
    }
    if (most >= RESYNC_TRIES) return { reconnect: true };
    return { retry: [...this.resyncing], wait: RESYNC_WAIT * 2 ** (most - 1) };
  }

  /**
   * The `state` to show for `msg` (a `state` or a `delta`), or null: a delta dropped, or
   * one that did not rebuild, for which `resync(table)` was called.
   * @param {Object} msg @param {(table: string) => void} resync
   */
  take(msg, resync) {
    if (msg.type === "state") {
      this.resyncing.delete(msg.table);
      this.refusals.delete(msg.table);
      this.last.set(msg.table, msg);
      return msg;
    }
    if (this.resyncing.has(msg.table)) return null;
    const last = this.last.get(msg.table);
    let state = null;
    if (last && last.view && last.game === msg.game && last.seq === msg.base) {
      try {
        const view = applyEvents(last.view, msg.events);
        if (viewHash(view) === msg.hash) {
          const { type, base, events, hash, ...fields } = msg;
          // The story events (a play, a bomb…) stay with the state, for its animation.
          state = { players: last.players, ...fields, type: "state", view,
            events: events.filter((e) => e.type !== "view") };
        }
      } catch (err) {
        // A patch that does not fit the view held (an extend of a key it lacks...): that
        // view is not the server's; the resync below brings it.
        console.warn("a delta did not apply:", err);
      }
    }
    if (!state) {
      this.resyncing.add(msg.table);
      this.resyncs += 1;
      resync(msg.table);
      return null;
    }
    this.applied += 1;
    this.last.set(msg.table, state);
    return state;
  }
}
