// The table screen (#/table/ID, #/join/CODE) and the routing of table messages into the
// store. Everything drawn comes from the latest `state` (its view is exactly what this
// seat may know) and, after a game, its `settled`.
import { currentRoute, registerScreen, store, ctx } from "./app.js";
import { lang, t } from "./i18n.js";
import { load as loadRules } from "./screens/rules.js";
import { cardEl, sortCards, splitCards } from "./cards.js";
import { h } from "./dom.js";
import { Hand } from "./hand.js";
import { hints, pickIndexes, takes } from "./judge.js";
import { runClocks, seatEl } from "./seats.js";
import { multiplierText, settleEl } from "./settle.js";
import { counterEl } from "./counter.js";
import { variantName, variantNames } from "./lobby.js";
import { display } from "./variants.js";
import { controlsEl } from "./controls.js";
import { pitEl } from "./trick.js";
import { pendingOf, stillWaiting } from "./answer.js";
import { nameText } from "./names.js";
import { loadReasons, refusalText } from "./reasons.js";
import { fxTools, liven } from "./fx.js";
import { unwatch, watching } from "./watch.js";
import { chatOf } from "./chat.js";

function follow(tableId) {
  const { name, params } = currentRoute();
  if (name === "table" && params[0] === tableId) return;
  if (["lobby", "join", "table", "events"].includes(name)) ctx.navigate(`#/table/${tableId}`);
}

ctx.ws.on("queued", (msg) => { store.queued = msg; });
ctx.ws.on("invite", (msg) => { store.invites.set(msg.table, msg); });
/** Whether the player himself turned 托管 on at a table (kept over a reload). */
/** Games where leaving mid-game is not an escape but a forced quit: the hand goes on
 * under 托管 and the leaver loses 40 points (platform rules §5, 保皇 Ruling 18). */
const FORCED_QUIT = new Set(["baohuang", "zhaopengyou"]);

const AUTO_KEY = "cardhall.autowanted";
function autoWanted(table, value) {
  const all = JSON.parse(sessionStorage.getItem(AUTO_KEY) || "{}");
  if (value === undefined) return Boolean(all[table]);
  all[table] = value;
  sessionStorage.setItem(AUTO_KEY, JSON.stringify(all));
  return value;
}

let restoring = new Set();
ctx.ws.on("welcome", (msg) => {
  for (const id of [...store.tables.keys()]) if (!msg.tables.includes(id)) store.tables.delete(id);
  restoring = new Set(msg.tables);
  const { name, params } = currentRoute();
  if (name === "table" && !msg.tables.includes(params[0]) && !watching.has(params[0])) {
    ctx.notice(t("table.gone"), "warn");
    ctx.navigate("#/");
  }
});
ctx.ws.on("state", (msg) => {
  // The hall puts a dropped player's seats on 托管; back again, he takes his seat back
  // unless he had asked for 托管 himself (docs/rulings.md).
  const restored = restoring.delete(msg.table);
  if (restored && msg.view && msg.phase === "playing") {
    const s = msg.seat;
    if (msg.view.auto[s] && !msg.view.auto_locked[s] && !autoWanted(msg.table)) {
      ctx.ws.send({ type: "act", table: msg.table, action: "auto off", seq: msg.seq });
    }
  }
  const fresh = !store.tables.has(msg.table);
  const before = store.tables.get(msg.table);
  // 托管 that the player did not ask for (his time ran out) is said, once, when it starts;
  // not the one the hall set while he was away (taken back just above).
  if (!restored && before && before.view && msg.view && before.game === msg.game
      && msg.seat >= 0
      && !before.view.auto[msg.seat] && msg.view.auto[msg.seat] && !autoWanted(msg.table)
      && !msg.view.auto_locked[msg.seat]) {
    ctx.notice(t("table.auto.on"), "warn");
  }
  store.tables.set(msg.table, msg);
  store.queued = null;
  if (fresh) follow(msg.table);
});
ctx.ws.on("settled", (msg) => {
  store.settled.set(msg.table, msg);
  const st = store.tables.get(msg.table);
  if (st && msg.balances) ctx.setBeans(msg.balances[String(st.seat)]);
  ctx.refreshMe().catch(() => null);
});
ctx.ws.on("left", (msg) => {
  const { name, params } = currentRoute();
  const here = name === "table" && params[0] === msg.table;
  // A table that breaks up after its settlement stays on screen (the settlement says
  // so and offers only the lobby); otherwise back to the lobby, where a re-queue shows.
  // Back from a reload as the game ended, there may be a settlement but no table to
  // draw it on: the lobby then, with a word (the game is in 战绩).
  const drawn = store.tables.has(msg.table);
  if (here && msg.reason === "dissolved" && store.settled.has(msg.table) && drawn) return;
  store.tables.delete(msg.table);
  if (!here) return;
  if (msg.reason === "a player left") ctx.notice(t("table.requeued"), "warn");
  else if (!drawn) ctx.notice(t("table.gone"), "warn");
  ctx.navigate(msg.reason === "round_over" ? "#/events" : "#/");
});

const SUITS = { s: "♠", h: "♥", c: "♣", d: "♦" };
const known = (x) => x !== null && x !== undefined;

/** How each fact a variant may list (its display hint `facts`) reads, from the view's
 * detail; null: nothing to show yet. */
const FACTS = {
  level: (d) => t("table.level", { r: d.level }),
  trump: (d) => (d.trump ? t("table.trump", { s: SUITS[d.trump] || d.trump }) : null),
  friend_call: (d) => (d.friend_call ? t("table.friendcall", { n: d.friend_call.n,
    c: cardEl(splitCards(d.friend_call.card)[0]).getAttribute("aria-label") }) : null),
  attacker_points: (d) => (known(d.attacker_points) ? t("table.score", { n: d.attacker_points }) : null),
};

/** A line of facts above the felt: phase, multiplier, wild rank, the variant's own facts
 * (找朋友's level, trump, friend call, score), the revealed card. */
export function factsEl(view, names) {
  const d = view.detail || {};
  const facts = [variantName(names, view.variant)];
  const ph = `phase.${view.phase}`;
  facts.push(t(ph) === ph ? view.phase : t(ph));
  if (view.multiplier) facts.push(`${t("table.mult")} ${multiplierText(view.multiplier)}`);
  if (d.wild) facts.push(t("table.wild", { r: d.wild === "T" ? "10" : d.wild }));
  for (const key of display(view.variant).facts) {
    const fact = FACTS[key] ? FACTS[key](d) : null;
    if (fact) facts.push(fact);
  }
  if (d.revealed_card) facts.push(t("table.revealed", { c: cardEl(d.revealed_card).getAttribute("aria-label") }));
  return h("p", { class: "facts", "aria-live": "polite" }, facts.join(" · "));
}

/** 规则 over the table, not instead of it: the game (and its clock) stays where it is. */
function rulesOver(variant) {
  const article = h("article", { class: "sc-rules-text", lang: lang() === "zh" ? "zh-CN" : "en" },
    h("p", {}, t("sc.loading")));
  const close = h("button", { type: "button", class: "primary", id: "rules-close" }, t("table.rules.close"));
  const dialog = h("dialog", { class: "rules-over", "aria-label": t("table.rules") },
    h("div", { class: "rules-head" }, h("strong", {}, t("table.rules")), close), article);
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog); // outside the screen, which each state redraws
  dialog.showModal();
  loadRules(variant).then((page) => {
    article.innerHTML = page[lang()]; // the project's own docs, built by scripts/web_rules.py
  }, () => { article.replaceChildren(h("p", {}, t("rules.missing", { name: variant }))); });
}

/** Names as a list in the reader's language: "甲、乙、丙", "A, B and C". */
const listText = (names) => (lang() === "en" ? new Intl.ListFormat("en-GB").format(names)
  : names.join("、"));

/** Under the settlement: who has asked for the next game (再来一局) and who is awaited;
 * once this player has asked, his button says he is waiting instead of asking again. */
function againEl(st, asked, button) {
  const mine = asked || (st.players[st.seat] || {}).next;
  if (button && mine) {
    button.disabled = true;
    button.textContent = t("table.again.asked");
  }
  // Seats with an account ask for the next game themselves (a bot account too); the
  // hall's bots (no id) always have.
  const waiting = st.players.filter((p) => p.id && !p.next && p.seat !== st.seat
    && p.connected !== false).map((p) => nameText(p.name));
  const ready = st.players.filter((p) => p.id && (p.next || (p.seat === st.seat && mine)));
  const line = h("p", { class: "again-status", role: "status", "aria-live": "polite" });
  if (!st.players.some((p) => p.id && p.seat !== st.seat)) return line; // alone with bots
  line.textContent = t("table.again.status", {
    ready: ready.length, n: st.players.filter((p) => p.id).length,
    who: waiting.length ? t("table.again.waiting", { names: listText(waiting) }) : "" });
  return line;
}

function inviteEl(st, c) {
  const inv = store.invites.get(st.table) || (st.code ? { code: st.code } : null);
  const box = h("div", { class: "invite" }, h("p", {}, t("table.waiting")));
  if (inv) {
    const link = `${location.origin}${location.pathname}#/join/${inv.code}`;
    const copy = h("button", { type: "button", onclick: () => navigator.clipboard?.writeText(link) },
      t("table.copy"));
    box.append(h("p", {}, `${t("table.invite")}: `, h("strong", { class: "code" }, inv.code)),
      h("p", {}, `${t("table.share")}: `, h("a", { href: link, class: "share" }, link), " ", copy));
  }
  const owner = store.invites.has(st.table) || (st.owner && c.me() && st.owner === c.me().id);
  if (owner) {
    box.append(h("button", { type: "button", class: "primary", id: "start",
      onclick: () => c.ws.send({ type: "start", table: st.table }) }, t("table.start")),
    spectatorsEl(st, c) || "");
  }
  return box;
}

/** The private table's owner opens or closes it to watchers (观战) while it lives. */
function spectatorsEl(st, c) {
  if (st.seat < 0 || !st.owner || !c.me() || st.owner !== c.me().id) return null;
  const on = st.spectators !== false;
  return h("button", { type: "button", id: "spectators", "aria-pressed": String(on),
    onclick: () => c.ws.send({ type: "spectators", table: st.table, on: !on }) }, t("watch.allow"));
}

function mount(root, c, [tableId]) {
  let names = null;
  let hintAt = -1;
  let hintList = [];
  let hinted = null; // the reading 提示 picked for the selection it made
  let choices = null; // the readings the chooser offers, while it is open
  let asked = null; // the cards sent asking for their readings ({choose}), until answered
  let busy = false;
  let pending = null; // the answer on its way (answer.js)
  let errorText = "";
  let rounds = 0; // rounds (tricks) seen to end here: the table emptied during play
  let lastTable = null;
  let askedAgain = null; // the game after which this player asked for the next one
  let peek = false; // the last trick shown in the middle instead of this one (peek button)
  let peekedAt = null; // the trick peeked at: a new one ends the peek
  let counterOn = localStorage.getItem("cardhall.counter") !== "0";
  const hand = new Hand(() => {
    errorText = ""; hinted = null; choices = null; asked = null; drawControls();
  });
  const screen = h("section", { class: "table" });
  root.append(screen);
  const stopClocks = runClocks(screen);
  variantNames(c.api).then((v) => { names = v; draw(); }).catch(() => null);
  loadReasons(c.api);

  const st = () => store.tables.get(tableId);
  const chat = chatOf(c, tableId, screen, st);
  const waiting = (msg) => stillWaiting(pending, msg);
  /** Send an action; `choose`: bare cards, which the server refuses with their readings
   * when they have several (docs/protocol.md), to open the chooser with those. */
  const send = (action, { choose = false } = {}) => {
    const s = st();
    if (!s) return;
    busy = true;
    pending = pendingOf(s, action);
    choices = null;
    asked = choose ? hand.selected() : null;
    c.ws.send({ type: "act", table: tableId, action, seq: s.seq, ...(choose ? { choose } : {}) });
    drawControls();
  };
  const ui = {
    hand, send,
    hint() {
      if (!hintList.length) return;
      hintAt = (hintAt + 1) % hintList.length;
      hand.select(pickIndexes(hand.cards, hintList[hintAt].cards) || []);
      hinted = hintList[hintAt].text;
      drawControls();
    },
    hinted: () => hinted,
    choices: () => choices,
    choose(list) {
      choices = list;
      drawControls();
      const first = screen.querySelector(list ? ".chooser .reading" : "#play");
      if (first) first.focus();
    },
    busy: () => busy,
    error: () => errorText,
    autoOff() {
      autoWanted(tableId, false);
      send("auto off");
    },
  };
  let controls = h("div");

  function drawControls() {
    const s = st();
    if (!s || !s.view) return;
    const next = controlsEl(s, ui);
    controls.replaceWith(next);
    controls = next;
  }

  function draw() {
    const s = st();
    const focusInHand = hand.el.contains(document.activeElement);
    screen.replaceChildren();
    if (!s) {
      screen.append(h("p", {}, t("table.nosuch")), h("a", { href: "#/" }, t("table.back")));
      return;
    }
    screen.dataset.variant = s.view ? s.view.variant : "";
    screen.dataset.phase = s.view ? s.view.phase : s.phase;
    screen.dataset.seq = String(s.seq);
    screen.dataset.rounds = String(rounds);
    const n = s.players.length;
    screen.style.setProperty("--seats", String(n));
    if (!s.view) {
      screen.append(h("div", { class: "felt" }, ...s.players.filter((_, i) => i !== s.seat)
        .map((p) => seatEl(s, p.seat, null)), h("div", { class: "center" }, inviteEl(s, c))),
        seatEl(s, s.seat, null));
      chat.decorate();
      return;
    }
    const view = s.view;
    const wild = view.detail && view.detail.wild;
    const seen = s.seat < 0; // watching (观战): the public table, nothing to play
    const bar = h("div", { class: "bar" }, factsEl(view, names),
      seen ? h("strong", { class: "watching", role: "status" }, t("watch.on")) : null,
      s.watchers ? h("span", { class: "watchers" }, t("watch.count", { n: s.watchers })) : null,
      h("div", { class: "tools" },
        h("button", { type: "button", id: "rules", onclick: () => rulesOver(view.variant) },
          t("table.rules")),
        h("button", { type: "button", "aria-pressed": String(counterOn), id: "counter-toggle",
          onclick: () => { counterOn = !counterOn; localStorage.setItem("cardhall.counter", counterOn ? "1" : "0"); draw(); },
        }, t("table.counter")),
        ...fxTools(draw), spectatorsEl(s, c),
        seen ? h("button", { type: "button", id: "leave", onclick: () => { unwatch(tableId); c.navigate("#/"); } },
          t("watch.stop")) : null,
        seen ? null : h("button", {
          type: "button", id: "auto", "aria-pressed": String(view.auto[s.seat]),
          disabled: view.auto_locked[s.seat] || s.phase !== "playing",
          title: view.auto_locked[s.seat] ? t("table.auto.locked") : null,
          onclick: () => c.ws.send({ type: "act", table: tableId, seq: s.seq,
            action: autoWanted(tableId, !view.auto[s.seat]) ? "auto on" : "auto off" }),
        }, view.auto_locked[s.seat] ? t("table.auto.locked")
          : t(view.auto[s.seat] ? "table.auto.off" : "table.auto")),
        seen ? null : h("button", { type: "button", id: "leave", onclick: () => {
          const warning = FORCED_QUIT.has(view.variant) ? "table.leave.quit" : "table.leave.confirm";
          if (s.phase === "playing" && !window.confirm(t(warning))) return;
          c.ws.send({ type: "leave", table: tableId });
          c.navigate("#/");
        } }, t("table.leave"))));
    const felt = h("div", { class: "felt" });
    const me = seen ? 0 : s.seat;
    for (let seat = 0; seat < n; seat++) if (seat !== me) felt.append(seatEl(s, seat, s.deadline));
    const lastTrick = JSON.stringify((view.detail || {}).last_trick || null);
    if (peek && lastTrick !== peekedAt) peek = false;
    felt.append(pitEl(s, { peek, onPeek: () => { peek = !peek; peekedAt = lastTrick; draw(); } }));
    screen.append(bar, felt, seatEl(s, me, s.deadline));
    if (seen) { liven(screen, s); return; }
    if (counterOn && view.phase === "play" && names && names[view.variant]) {
      screen.append(counterEl(view, names[view.variant]));
    }
    screen.append(controls);
    const opts = { wild, trump: view.detail.trump, level: view.detail.level };
    hand.set(sortCards(view.hand, view.variant, opts), { wild });
    screen.append(hand.el, h("p", { class: "keys" }, t("table.keys")));
    if (focusInHand) hand.refocus();
    hintList = hints(view);
    drawControls();
    const settled = store.settled.get(tableId);
    if (s.phase === "between" && view.result) {
      const msg = settled && settled.game === s.game ? settled
        : { result: view.result, beans: {}, points: {}, titles: {}, dissolved: view.result.dissolve };
      const box = settleEl(s, msg, {
        again: () => { c.ws.send({ type: "next", table: tableId }); askedAgain = s.game; draw(); },
        lobby: () => { c.ws.send({ type: "leave", table: tableId }); c.navigate("#/"); },
      });
      if (!msg.dissolved) box.append(againEl(s, askedAgain === s.game, box.querySelector("#again")));
      screen.append(box);
    }
    liven(screen, s);
    chat.decorate();
  }

  const offs = [
    c.ws.on("state", (msg) => {
      if (msg.table !== tableId) return;
      if (!waiting(msg)) { busy = false; pending = null; }
      errorText = "";
      hintAt = -1;
      hinted = null;
      choices = null;
      asked = null;
      const table = msg.view ? msg.view.table : null;
      if (lastTable && (!table || (table.plays && table.plays.length < (lastTable.plays || []).length))) {
        rounds += 1;
      }
      lastTable = table;
      draw();
    }),
    c.ws.on("settled", (msg) => msg.table === tableId && draw()),
    // Connected again: an answer in flight may never have arrived; the buttons come back.
    c.ws.on("welcome", () => { busy = false; pending = null; }),
    c.ws.on("error", (msg) => {
      busy = false;
      pending = null;
      const sel = asked;
      asked = null;
      const s = st();
      const readings = sel && s && s.view && msg.readings
        && msg.readings.filter((a) => takes(s.view, a, sel));
      if (readings && readings.length === 1) {
        send(readings[0]); // one legal reading of the cards: it is what the player meant
      } else if (readings && readings.length) {
        errorText = "";
        ui.choose(readings);
      } else {
        errorText = refusalText(msg);
        drawControls();
      }
    }),
  ];
  const keys = (e) => {
    if (e.target.closest && e.target.closest("input, select, textarea, dialog")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const id = { p: "play", x: "pass", h: "hint" }[e.key.toLowerCase()];
    if (id) {
      const b = screen.querySelector(`#${id}`);
      if (b && !b.disabled) { e.preventDefault(); b.click(); }
    } else if (e.key === "Escape" && choices) ui.choose(null);
    else if (e.key === "Escape") hand.select([]);
  };
  document.addEventListener("keydown", keys);
  draw();
  return () => {
    for (const d of document.querySelectorAll("dialog.rules-over")) d.remove();
    stopClocks();
    hand.detach();
    chat.off();
    offs.forEach((off) => off());
    document.removeEventListener("keydown", keys);
  };
}

registerScreen("table", { mount });

/** #/join/CODE: take a seat at a friend's private table (a guest is made first if needed). */
registerScreen("join", {
  mount(root, c, [code]) {
    root.append(h("p", { role: "status" }, t("table.joining", { code })));
    const go = () => c.ws.send({ type: "join", code });
    if (c.me()) go();
    else {
      c.api("POST", "/api/guest").then(({ token, player }) => { c.setSession(token, player); go(); })
        .catch((err) => c.notice(t("err.generic", { msg: err.message }), "error"));
    }
    return c.ws.on("error", (msg) => {
      if (["unknown_table", "not_allowed", "rate_limited"].includes(msg.code)) {
        c.notice(refusalText(msg), "error");
      }
    });
  },
});
