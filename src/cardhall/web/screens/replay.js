// #/replay/GAME/STEP: a finished game step by step with every hand shown (GET
// /api/games/GAME/replay), moved through by buttons, ←/→/Home/End and a slider; the step
// is kept in the address, so a reload comes back to it. The result below is the table's
// settlement board; the 分析 panel (./analysis.js) judges one seat's decisions.
import { registerScreen } from "../app.js";
import { t } from "../i18n.js";
import { cardEl, sortCards } from "../cards.js";
import { errorText, fmtDate, frame, h, variantName, variants } from "./common.js";
import { factsEl } from "../table.js";
import { actionEl, asView, cardsEl, roleName } from "./words.js";
import { boardEl, outcomeOf, outcomeText } from "../settle/board.js";
import { nameText, titleText } from "../names.js";
import { analysisEl } from "./analysis.js";

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
    ratings: game.ratings || null,
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
  const me = ctx.me();
  const own = game.seats.findIndex((s) => me && s.id === me.id);
  // A decision chosen in the panel (below the seats): the step, and the table in sight.
  // Every variant's plays are judged (保皇 and 找朋友 by rollouts: src/cardhall/analysis).
  const panel = analysisEl(ctx, game, { seat: Math.max(0, own), go: (to) => {
    go(to);
    now.scrollIntoView({ block: "center" });
  } });
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
    panel.update(step);
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
    ...[now, panel.current, seats, panel.el, resultEl(game, ctx.me())].filter(Boolean));
  draw();
  f.section.dataset.loaded = "1";
  f.section.dataset.last = String(last);
  return () => {
    document.removeEventListener("keydown", keys);
    panel.stop();
  };
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
