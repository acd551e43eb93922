// #/replay/GAME/STEP: a finished game step by step with every hand shown, from the
// frames of GET /api/games/GAME/replay. Buttons, the ←/→ (Home/End) keys and a slider
// move through the steps; the step is kept in the address, so a language switch or a
// reload comes back to it. The final result is below, explained as the table's settlement
// explains it (the same board: ../settle/board.js).
import { registerScreen } from "../app.js";
import { addStrings, t } from "../i18n.js";
import { cardEl, sortCards } from "../cards.js";
import { errorText, fmtDate, frame, h, variantName, variants } from "./common.js";
import { factsEl } from "../table.js";
import { actionEl, asView, cardsEl, roleName } from "./words.js";
import { boardEl, outcomeOf, outcomeText } from "../settle/board.js";
import { nameText, titleText } from "../names.js";

function seatName(game, seat) {
  const s = game.seats[seat];
  return s ? nameText(s.name) : t("rp.seat", { n: seat });
}

/** The play on the table: one play to beat, or a trick's plays seat by seat. */
function tableEl(game, f) {
  const table = f.table;
  if (!table) return h("p", { class: "sc-empty" }, t("rp.table.empty"));
  if (table.plays) {
    return h("ul", { class: "sc-trick" }, table.plays.map((p) =>
      h("li", {}, h("span", { class: "sc-who" }, seatName(game, p.seat)), cardsEl(p.cards))));
  }
  return h("p", {}, h("span", { class: "sc-who" }, seatName(game, table.seat)), cardsEl(table.cards));
}

/** The kitty once it is shown (the facts line says the rest: trump, friend call, …). */
function kittyEl(f) {
  const kitty = (f.detail || {}).kitty;
  return typeof kitty === "string" && kitty
    ? h("p", { class: "sc-detail" }, t("rp.kitty"), " ", cardsEl(kitty)) : null;
}

/** The phase in which `seat` said its last word by `step`: a bid's "pass" stays 不叫 when
 * the cards are being played, not 不出 (issue 26: an earlier 不叫 was relabelled). */
export function lastPhase(game, step, seat) {
  for (let j = step; j > 0; j--) {
    const fr = game.frames[j];
    if (fr.seat === seat && fr.action && !/^(@\d+ )?(auto|leave)\b/.test(fr.action)) {
      return game.frames[j - 1].phase;
    }
  }
  return game.frames[step].phase;
}

function seatEl(game, f, seat, step) {
  const info = game.seats[seat];
  const d = f.detail || {};
  const hand = sortCards(f.hands[seat] || [], game.variant,
    { trump: d.trump, level: d.level, wild: d.wild });
  const classes = ["sc-seat"];
  if (f.seat === seat) classes.push("acted");
  if ((f.acting || []).includes(seat)) classes.push("acting");
  const role = f.roles[seat];
  const label = role ? roleName(game.variant, f, seat) : null;
  return h("li", { class: classes.join(" "), "data-seat": String(seat),
    "aria-label": t("rp.seat.label", { name: nameText(info.name), n: f.counts[seat] }) },
  h("div", { class: "sc-seat-head" },
    h("strong", {}, nameText(info.name)),
    h("small", {}, info.bot ? t("seat.bot") : titleText(info.title) || ""),
    label ? h("span", { class: `sc-badge role-${role}` }, label) : null,
    h("span", { class: "sc-count" }, t("rp.count", { n: f.counts[seat] })),
    (f.acting || []).includes(seat) && f.phase !== "over"
      ? h("span", { class: "sc-badge turn" }, t("rp.turn")) : null),
  h("div", { class: "sc-last" }, t("rp.last"), " ",
    actionEl(game.variant, lastPhase(game, step, seat), f, f.last[seat])),
  h("div", { class: "sc-hand", "aria-label": t("rp.hand", { name: nameText(info.name) }),
    role: "group" },
    hand.length ? hand.map((c) => cardEl(c, { small: true })) : h("span", { class: "sc-empty" },
      t("rp.no_cards"))));
}

/** The final result: the same board as the table's settlement (../settle/board.js),
 * from the game's result, its stored beans and the last frame (roles, cards left). */
function resultEl(game, me) {
  const r = game.result;
  if (!r) return h("p", {}, t("rp.no_result"));
  const end = game.frames[game.frames.length - 1];
  const seat = game.seats.findIndex((s) => me && s.id === me.id);
  const outcome = outcomeOf(r, seat);
  return h("section", { class: "sc-result-box", "aria-labelledby": "rp-result-h",
    "data-outcome": outcome || "" },
  h("h2", { id: "rp-result-h" }, t("rp.result"), outcome ? ` · ${outcomeText(outcome)}` : ""),
  h("p", {}, t(`rp.ended.${r.ended}`)),
  boardEl({
    variant: game.variant, result: r, me: seat,
    seats: game.seats.map((s) => ({ id: s.id, name: s.name, bot: s.bot, title: "" })),
    role: (n) => (end.roles[n] ? roleName(game.variant, end, n) : null),
    hands: end.hands, beans: game.beans || {}, fees: game.fees || null, balances: null,
  }));
}

function viewer(root, ctx, game, list, start) {
  const f = frame(root, "replay", t("rp.title", { game: variantName(list, game.variant) }));
  const last = game.frames.length - 1;
  let step = Math.max(0, Math.min(last, start));
  const first = h("button", { type: "button", "aria-label": t("rp.first") }, "|◀");
  const back = h("button", { type: "button", "aria-label": t("rp.back") }, "◀");
  const fwd = h("button", { type: "button", "aria-label": t("rp.forward") }, "▶");
  const end = h("button", { type: "button", "aria-label": t("rp.end") }, "▶|");
  const slider = h("input", { type: "range", min: "0", max: String(last), value: String(step),
    "aria-label": t("rp.slider"), id: "rp-slider" });
  const counter = h("output", { for: "rp-slider", class: "sc-step", "aria-live": "polite" });
  const now = h("div", { class: "sc-now" });
  const seats = h("ol", { class: "sc-seats" });
  const go = (to) => {
    step = Math.max(0, Math.min(last, to));
    draw();
  };
  const draw = () => {
    const fr = game.frames[step];
    history.replaceState(null, "", `#/replay/${encodeURIComponent(game.id)}/${step}`);
    slider.value = String(step);
    slider.setAttribute("aria-valuetext", t("rp.step", { n: step, total: last }));
    counter.textContent = t("rp.step", { n: step, total: last });
    first.disabled = back.disabled = step === 0;
    end.disabled = fwd.disabled = step === last;
    now.replaceChildren(...[
      h("div", { class: "sc-action" }, step === 0 ? t("rp.deal") : [
        h("strong", {}, fr.seat === null ? "" : seatName(game, fr.seat)), " ",
        actionEl(game.variant, game.frames[step - 1].phase, fr, fr.action)]),
      factsEl({ ...asView(game.variant, fr), multiplier: fr.multiplier }, list),
      kittyEl(fr),
      h("div", { class: "sc-felt", "aria-label": t("rp.table"), role: "group" }, tableEl(game, fr)),
    ].filter(Boolean));
    seats.replaceChildren(...game.seats.map((s) => seatEl(game, fr, s.seat, step)));
    f.section.dataset.step = String(step);
  };
  first.addEventListener("click", () => go(0));
  back.addEventListener("click", () => go(step - 1));
  fwd.addEventListener("click", () => go(step + 1));
  end.addEventListener("click", () => go(last));
  slider.addEventListener("input", () => go(Number(slider.value)));
  const keys = (ev) => {
    if (ev.target === slider || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.target instanceof HTMLElement && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return;
    const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: last }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    go(to);
  };
  document.addEventListener("keydown", keys);
  f.body.append(
    h("p", { class: "sc-meta" }, fmtDate(game.ended), " · ",
      h("a", { href: `#/rules/${game.variant}` }, t("rp.rules")), " · ",
      h("a", { href: "#/history" }, t("nav.history"))),
    h("div", { class: "sc-controls", role: "group", "aria-label": t("rp.controls") },
      first, back, slider, fwd, end, counter),
    now, seats, resultEl(game, ctx.me()));
  draw();
  f.section.dataset.loaded = "1";
  f.section.dataset.last = String(last);
  return () => document.removeEventListener("keydown", keys);
}

registerScreen("replay", {
  mount(root, ctx, params) {
    const id = params[0] || "";
    const start = Number.parseInt(params[1] || "0", 10) || 0;
    const holder = h("div");
    root.append(holder);
    let cleanup = null;
    let gone = false;
    const loading = h("p", { role: "status" }, t("sc.loading"));
    holder.append(loading);
    Promise.all([ctx.api("GET", `/api/games/${encodeURIComponent(id)}/replay`),
      variants(ctx).catch(() => ({}))]).then(([game, list]) => {
      if (gone) return;
      holder.replaceChildren();
      cleanup = viewer(holder, ctx, game, list, start);
    }, (err) => {
      loading.textContent = err.status === 404 ? t("rp.missing") : errorText(err);
    });
    return () => {
      gone = true;
      if (cleanup) cleanup();
    };
  },
});

addStrings({
  zh: {
    "rp.title": "回放 · {game}", "rp.seat": "座位 {n}",
    "rp.count": "{n} 张", "rp.turn": "该出", "rp.last": "上一手：", "rp.hand": "{name} 的手牌",
    "rp.no_cards": "（出完了）", "rp.seat.label": "{name}，{n} 张牌",
    "rp.table": "桌面", "rp.table.empty": "桌上没有牌", "rp.kitty": "底牌", 
    "rp.result": "最终结果", "rp.no_result": "这局没有结果。",
    "rp.ended.finished": "打完", "rp.ended.escape": "有人逃跑", "rp.ended.unscored": "全部托管，不计分",
    "rp.ended.dissolved": "流局",
    "rp.first": "第一步", "rp.back": "上一步", "rp.forward": "下一步", "rp.end": "最后一步",
    "rp.slider": "步数", "rp.step": "第 {n} / {total} 步", "rp.deal": "发牌",
    "rp.controls": "回放控制（也可以用 ← → 键）", "rp.rules": "规则",
    "rp.missing": "没有这局牌，或者它还没打完（只有打完的牌局才能回放）。",
  },
  en: {
    "rp.title": "Replay · {game}", "rp.seat": "Seat {n}",
    "rp.count": "{n} cards", "rp.turn": "to act", "rp.last": "Last:", "rp.hand": "{name}'s hand",
    "rp.no_cards": "(out of cards)", "rp.seat.label": "{name}, {n} cards",
    "rp.table": "Table", "rp.table.empty": "Nothing on the table", "rp.kitty": "Kitty",
    "rp.result": "Final result", "rp.no_result": "This game has no result.",
    "rp.ended.finished": "Played out", "rp.ended.escape": "A player escaped",
    "rp.ended.unscored": "All on auto-play: unscored", "rp.ended.dissolved": "Dissolved",
    "rp.first": "First step", "rp.back": "Step back", "rp.forward": "Step forward",
    "rp.end": "Last step", "rp.slider": "Step", "rp.step": "Step {n} of {total}",
    "rp.deal": "The deal", "rp.controls": "Replay controls (the ← → keys work too)",
    "rp.rules": "Rules",
    "rp.missing": "No such game, or it is still being played (only finished games can be replayed).",
  },
});
