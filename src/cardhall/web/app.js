// The shell: session, header, notices and the hash router. A screen is a module that
// calls registerScreen(name, {mount(root, ctx, params)}); "#/NAME/p1/p2" mounts it with
// params [p1, p2]; mount may return a cleanup function, called when the route changes.
import { lang, setLang, t } from "./i18n.js";
import { api, setToken, Socket, token } from "./net.js";
import { watchAway } from "./away.js";
import { loadNames, nameText, titleText } from "./names.js";
import { loadVariants } from "./variants.js";
import { h } from "./dom.js";

const screens = new Map();

export function registerScreen(name, screen) {
  screens.set(name, screen);
}

/** What the WebSocket told about the tables this player sits at (the play screens read it). */
export const store = { tables: new Map(), settled: new Map(), queued: null, invites: new Map() };

let me = null;
let cleanup = null;
const noticeEl = () => document.getElementById("notice");
let noticeTimer = null;

/** Show a banner (kind: ok, warn, error); null hides it. ok-notices fade by themselves. */
export function notice(text, kind = "warn") {
  const el = noticeEl();
  clearTimeout(noticeTimer);
  el.hidden = !text;
  el.textContent = text || "";
  el.dataset.kind = kind;
  if (text && kind === "ok") noticeTimer = setTimeout(() => notice(null), 2500);
}

const socket = new Socket(notice);

function navigate(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

// Answers to /api/me may come back out of order (a settlement's refresh racing another):
// only the answer to the latest request asked is kept, never an older one over it.
let asked = 0;
let kept = 0;

async function refreshMe() {
  if (!token()) {
    me = null;
  } else {
    const mine = ++asked;
    try {
      const got = await api("GET", "/api/me");
      if (mine < kept) return me;
      kept = mine;
      me = got;
    } catch (err) {
      if (ENDED.has(err.code)) sessionEnded(err.code);
      else if (err.status === 401) forget();
      else throw err;
    }
  }
  drawHeader();
  return me;
}

function forget() {
  setToken(null);
  me = null;
  socket.close();
  store.tables.clear();
  store.settled.clear();
  store.queued = null;
  drawHeader();
}

function setSession(tok, player) {
  socket.close();
  store.tables.clear();
  store.settled.clear();
  setToken(tok);
  me = player;
  drawHeader();
  socket.connect();
}

/** Refusals that mean this browser's session is over (docs/protocol.md). */
/** Refusals that end the session: the shell answers them (screens leave them alone). */
export const ENDED = new Set(["bad_token", "session_expired"]);

/** The session expired or was ended elsewhere: say so and show the login form (a page
 * that needed the session would otherwise stay blank or half drawn). */
function sessionEnded(code) {
  const had = token() !== null;
  forget();
  if (!had) return;
  notice(t(code === "session_expired" ? "net.expired" : "net.ended"), "error");
  navigate("#/login");
}

/** The API as the screens call it: a refusal that ends the session is handled here. */
async function screenApi(method, path, body) {
  try {
    return await api(method, path, body);
  } catch (err) {
    if (err.status === 401 && ENDED.has(err.code)) sessionEnded(err.code);
    throw err;
  }
}

async function logout() {
  socket.close(); // first: the server closes this session's socket (4401) on logout
  if (token()) await api("POST", "/api/logout").catch(() => null);
  forget();
  navigate("#/");
}

/** The balance a settlement reports (its `balances`): the header shows it at once,
 * before /api/me confirms it. */
function setBeans(beans) {
  if (!me || typeof beans !== "number") return;
  me = { ...me, beans };
  drawHeader();
}

export const ctx = {
  api: screenApi, t, lang, navigate, refreshMe, setSession, logout, store, notice, setBeans,
  me: () => me,
  ws: { send: (msg) => socket.send(msg), on: (type, fn) => socket.on(type, fn) },
  socket,
};

function link(href, key) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = t(key);
  return a;
}

function drawHeader() {
  const nav = document.getElementById("nav");
  nav.replaceChildren();
  nav.append(link("#/", "nav.lobby"));
  if (!me || me.guest) nav.append(link("#/login", "nav.login"), link("#/register", "nav.register"));
  if (me) nav.append(link("#/profile", "nav.profile"));
  if (me && !me.guest) nav.append(link("#/friends", "nav.friends"));
  nav.append(link("#/events", "nav.events"), link("#/puzzle", "nav.puzzle"), link("#/leaderboard", "nav.leaderboard"));
  if (me) nav.append(link("#/history", "nav.history"));
  const who = document.getElementById("who");
  // In parts, so that a phone can drop the title before it cuts the balance.
  who.replaceChildren(...(me ? [h("span", { class: "who-name" }, nameText(me.name)),
    h("span", { class: "who-title" }, ` · ${titleText(me.title)}`),
    h("span", { class: "who-beans" }, ` · ${me.beans} ${t("beans")}`)] : []));
  const sw = document.getElementById("lang");
  sw.textContent = t("lang.switch");
  sw.setAttribute("aria-label", t("lang.switch.label"));
  sw.lang = lang() === "zh" ? "en" : "zh-CN"; // it names the other language in that language
  document.getElementById("brand-zh").hidden = lang() !== "zh";
  nav.setAttribute("aria-label", t("nav.label"));
  document.title = t("app.title");
}

/** The route in the hash; `bad` when a part is not a valid percent-escape (a link cut
 * short or mistyped, "#/join/%E0%A4%A"): the page says so instead of failing. */
function parse() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  try {
    return { name: parts[0] || "lobby", params: parts.slice(1).map(decodeURIComponent) };
  } catch (err) {
    if (!(err instanceof URIError)) throw err;
    return { name: "badlink", params: [], bad: true };
  }
}

export function currentRoute() {
  return parse();
}

function route() {
  if (cleanup) cleanup();
  cleanup = null;
  const { name, params, bad } = parse();
  const root = document.getElementById("app");
  root.replaceChildren();
  root.dataset.screen = name;
  const screen = screens.get(name);
  if (!screen) {
    const p = document.createElement("p");
    p.textContent = t(bad ? "badlink" : "notfound");
    p.setAttribute("role", "alert");
    root.append(p, link("#/", "nav.lobby"));
    return;
  }
  const out = screen.mount(root, ctx, params);
  if (typeof out === "function") cleanup = out;
  showSeated();
}
let showSeated = () => {};

socket.on("welcome", (msg) => {
  me = { ...(me || {}), ...msg.player };
  drawHeader();
});
socket.on("error", (msg) => {
  if (ENDED.has(msg.code)) sessionEnded(msg.code);
});
// Told what happened while away (docs/protocol.md): a box under the header; a game that
// ended meanwhile brings its settlement, which the table screen and the balance take as
// any `settled` (the box says the rest, so the bare "it ended while you were away" goes).
watchAway(document.getElementById("away"), socket);
socket.on("away", (msg) => {
  if (msg.over && noticeEl().textContent === t("table.gone")) notice(null);
  if (msg.settled) socket.emit("settled", msg.settled);
});
socket.on("close", (ev) => {
  if (ev.code === 4401) sessionEnded("bad_token");
});

window.addEventListener("hashchange", route);
window.addEventListener("langchange", () => {
  drawHeader();
  route();
});

async function start() {
  await import("./lobby.js");
  await import("./table.js");
  await import("./screens/index.js");
  // After table.js's handlers, which keep store.tables: the banner reads it.
  const { watchSeated } = await import("./seated.js");
  showSeated = watchSeated(document.getElementById("seated"), ctx, currentRoute);
  for (const type of ["state", "left", "welcome"]) socket.on(type, () => showSeated());
  document.getElementById("lang").addEventListener("click", () =>
    setLang(lang() === "zh" ? "en" : "zh"));
  drawHeader();
  // What every screen names (variants, the hall's titles and bots in English): asked
  // for at once, waited for only before the first screen is drawn.
  const words = Promise.all([loadNames(api), loadVariants(api).catch(() => null)]);
  if (token()) {
    socket.connect();
    // The screens draw for a known player (the lobby's join buttons), so ask first.
    await refreshMe().catch((err) => notice(t("err.generic", { msg: err.message }), "error"));
  }
  await words;
  route();
  document.body.dataset.ready = "1";
}

start();
