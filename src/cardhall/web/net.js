// The hall's two channels: the HTTP API (JSON, Bearer token) and one WebSocket that
// reconnects with backoff, each hello bringing a state for every table. Each `delta` is
// rebuilt into the `state` it stands for (deltas.js): the screens see states only.
import { t } from "./i18n.js";
import { Deltas } from "./deltas.js";

const TOKEN = "cardhall.token";
// The last token this browser logged in with, kept after it ends: sent with a login, it
// shows the server a known device, which the account's login lockout spares.
const DEVICE = "cardhall.device";

export function device() {
  return localStorage.getItem(DEVICE);
}

export function token() {
  return localStorage.getItem(TOKEN);
}

export function setToken(value) {
  if (value) {
    localStorage.setItem(TOKEN, value);
    localStorage.setItem(DEVICE, value);
  } else {
    localStorage.removeItem(TOKEN);
  }
}

/** Call the HTTP API; a refusal throws an Error with .code, .status and .message. */
export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  const tok = token();
  if (tok) headers.Authorization = `Bearer ${tok}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(data.message || res.statusText);
    err.code = data.error || "http";
    err.status = res.status;
    throw err;
  }
  return data;
}

/** Close codes after which the client must not reconnect (docs/protocol.md). */
const FINAL = { 1008: "net.kicked", 4001: "net.superseded", 4003: "net.kicked", 4401: "net.ended" };

export class Socket {
  constructor(notice) {
    this.notice = notice; // (text or null, kind) → shows or hides the banner
    this.handlers = new Map();
    this.ws = null;
    this.attempt = 0;
    this.ready = false;
    this.queue = [];
    this.wanted = false;
    this.deltas = new Deltas();
  }

  /** Subscribe to a message type ("*" for all, "open"/"close" for the link); returns off(). */
  on(type, fn) {
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    this.handlers.get(type).add(fn);
    return () => this.handlers.get(type).delete(fn);
  }

  emit(type, msg) {
    for (const key of [type, "*"]) for (const fn of this.handlers.get(key) || []) fn(msg);
  }

  /** Send now if authenticated, else once the welcome has arrived. */
  send(msg) {
    if (this.ready && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else this.queue.push(msg);
  }

  connect() {
    this.wanted = true;
    if (this.ws && this.ws.readyState <= WebSocket.OPEN) return;
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    const ws = new WebSocket(url);
    this.ws = ws;
    this.ready = false;
    this.deltas.reset();
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: token(), deltas: true }));
    ws.onmessage = (ev) => {
      let msg = JSON.parse(ev.data);
      if (msg.type === "state" || msg.type === "delta") {
        msg = this.deltas.take(msg, (table) => ws.send(JSON.stringify({ type: "resync", table })));
        // What the tests read: deltas applied, resyncs asked for.
        document.body.dataset.deltas = String(this.deltas.applied);
        document.body.dataset.resyncs = String(this.deltas.resyncs);
        if (!msg) return;
      }
      if (msg.type === "left") this.deltas.forget(msg.table);
      if (msg.type === "error") this.resyncRefused(ws, msg);
      if (msg.type === "welcome") {
        this.ready = true;
        if (this.attempt > 0) this.notice(t("net.back"), "ok");
        this.attempt = 0;
        const pending = this.queue.splice(0);
        for (const m of pending) ws.send(JSON.stringify(m));
      }
      this.emit(msg.type, msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ready = false;
      this.emit("close", ev);
      if (FINAL[ev.code]) {
        this.wanted = false;
        this.notice(t(FINAL[ev.code]), "error");
        return;
      }
      if (!this.wanted) return;
      this.attempt += 1;
      this.notice(t("net.offline", { n: this.attempt }), "warn");
      const wait = Math.min(8000, 250 * 2 ** Math.min(this.attempt - 1, 5));
      setTimeout(() => this.wanted && this.connect(), wait);
    };
  }

  /** An error that may be a pending resync's refusal: ask again after a wait, or after
   * a few refusals reconnect (the hello brings every table in full): a table never
   * waits, frozen, for the next full state. */
  resyncRefused(ws, msg) {
    const todo = this.deltas.refused(msg);
    if (!todo) return;
    if (todo.reconnect) {
      if (this.ws === ws) this.drop();
      return;
    }
    setTimeout(() => {
      if (this.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
      for (const table of todo.retry) {
        if (!this.deltas.resyncing.has(table)) continue;
        this.deltas.resyncs += 1;
        document.body.dataset.resyncs = String(this.deltas.resyncs);
        ws.send(JSON.stringify({ type: "resync", table }));
      }
    }, todo.wait);
  }

  /** Close for good (logout). */
  close() {
    this.wanted = false;
    this.queue = [];
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }

  /** Drop the link as a network fault would (tests, and the "retry now" button). */
  drop() {
    if (this.ws) this.ws.close(4000);
  }
}
