// How a game's points came about, in words, from the engine's Result alone (docs/contract.md
// "The result"): the multiplier's causes, 加倍, the coefficient, the arithmetic, and what
// only some games have (扣底 and levels, places, an escape's penalty). What is shown
// follows the fields the result carries, never the variant's id, so a new variant that
// settles like an old one reads like it.
import { t } from "../i18n.js";
import { h } from "../dom.js";
import { cardName } from "../cards.js";
import { nameText } from "../names.js";

export function causeLabel(k) {
  const key = `cause.${k}`;
  return t(key) === key ? k : t(key);
}

/** The multiplier as "×total (cause ×f, …)", causes of factor 1 left out. */
export function multiplierText(m) {
  const parts = Object.entries(m.causes || {}).filter(([, f]) => f !== 1)
    .map(([k, f]) => `${causeLabel(k)}×${f}`);
  return `×${m.total}${parts.length ? ` (${parts.join(" · ")})` : ""}`;
}

/** Points as shown everywhere in a settlement: "+12", "-6", "0", "2.5". */
export const signed = (n) => (n > 0 ? `+${n}` : String(n));

/** A seat's player's name ("" for no seat). */
export const seatName = (s, seat) => (seat === null || seat === undefined ? "" : nameText(s.seats[seat].name));

/** A number as a factor of a product: "(-3)" for a negative one. */
const factor = (n) => (n < 0 ? `(${n})` : String(n));

export function placeLabel(place) {
  return t(place ? `place.${place}` : "place.none");
}

/** How many times a cause happened, where the result counts it (robs, each bomb class). */
function causeCount(key, detail) {
  const mult = detail.multiplier && typeof detail.multiplier === "object" ? detail.multiplier : {};
  if (key === "robs" && Number.isInteger(mult.robs)) return t("sx.times", { n: mult.robs });
  const bombs = mult.bombs && typeof mult.bombs === "object" ? mult.bombs : null;
  if (bombs && key in bombs) return t("sx.count", { n: bombs[key] });
  if (key === "bombs" && Number.isInteger(detail.bombs)) return t("sx.count", { n: detail.bombs });
  return null;
}

/** Causes that are a number the game reached rather than a doubling (the bid, 找朋友's
 * bands): always shown, as "叫分 3". */
const BASES = new Set(["contract", "stake"]);

/** One cause as "叫分 3" or "抢地主 ×8 (3 次)". */
function causeText(key, f, detail) {
  if (BASES.has(key)) return `${causeLabel(key)} ${f}`;
  const label = key === "spring" && detail.spring === "anti-spring" ? causeLabel("anti-spring")
    : causeLabel(key);
  const count = causeCount(key, detail);
  return `${label} ×${f}${count ? ` (${count})` : ""}`;
}

/** "倍数 ×40：抢地主 ×8 (3 次) · 明牌 ×5": every cause that is not ×1 (BASES always). */
function multiplierEl(r) {
  const d = r.detail || {};
  const parts = Object.entries(r.multiplier.causes || {})
    .filter(([k, f]) => f !== 1 || BASES.has(k))
    .map(([k, f]) => h("span", { class: "sx-cause", "data-cause": k }, causeText(k, f, d)));
  const list = parts.length ? parts.flatMap((p, i) => (i ? [" · ", p] : [p]))
    : [h("span", { class: "sx-cause" }, t("sx.mult.none"))];
  return h("p", { class: "sx-mult" }, h("strong", {}, `${t("sx.mult")} ×${r.multiplier.total}`),
    t("sx.colon"), ...list);
}

/** 加倍 per seat (the 欢乐 family and 五人): who doubled, each ×2 on his pairs. */
function doublingEl(r, s) {
  const doubling = (r.detail || {}).doubling;
  if (!doubling || !Array.isArray(doubling.factors)) return null;
  const who = doubling.factors.map((f, seat) => (f > 1 ? seat : null)).filter((x) => x !== null);
  return h("p", { class: "sx-doubling" }, h("strong", {}, t("sx.doubling")), " ",
    who.length ? who.map((seat, i) => h("span", { class: "sx-double", "data-seat": String(seat) },
      i ? " · " : "", t("sx.doubled", { name: seatName(s, seat) })))
      : t("sx.nodouble"));
}

/** The room's coefficient (癞子 0.25), two landlords' halves, the cap. */
function coefficientEls(r) {
  const d = r.detail || {};
  const out = [];
  if (typeof d.coefficient === "number" && d.coefficient !== 1) {
    out.push(h("p", { class: "sx-coef" }, t("sx.coef", { c: d.coefficient })));
  }
  if (Array.isArray(d.landlords) && d.landlords.length > 1 && Array.isArray(d.pairs)) {
    out.push(h("p", { class: "sx-coef" }, t("sx.split", { n: d.landlords.length })));
  }
  // the cap is the 癞子 rule's (laizi Ruling 9), the only one a result says it met
  if (d.capped) out.push(h("p", { class: "sx-coef" }, t("sx.capped", { cap: 10000 })));
  return out;
}

/** Each farmer's pair with the landlord: M × 2 (whoever doubled) × coefficient = x; a
 * pair the cap scaled down says so ("= 12500 → 10000"). */
function pairLines(r, s) {
  const d = r.detail;
  const factors = (d.doubling && d.doubling.factors) || [];
  const coefficient = typeof d.coefficient === "number" ? d.coefficient : 1;
  const lords = Array.isArray(d.landlords) ? d.landlords.length : 1;
  return d.pairs.map((p) => {
    const lord = p.landlord ?? d.landlord;
    const terms = [String(r.multiplier.total)];
    let product = r.multiplier.total * coefficient / lords;
    for (const seat of [lord, p.farmer]) {
      if (factors[seat] > 1) {
        const who = seatName(s, seat);
        terms.push(`${factors[seat]} (${t("sx.pair.double", { name: who })})`);
        product *= factors[seat];
      }
    }
    if (coefficient !== 1) terms.push(String(coefficient));
    const split = lords > 1 ? ` ÷ ${lords}` : "";
    const capped = Math.abs(product - p.points) > 1e-9;
    return h("li", { class: "sx-pair", "data-farmer": String(p.farmer), "data-points": String(p.points) },
      t("sx.pair", { lord: seatName(s, lord),
        farmer: seatName(s, p.farmer) }),
      `${terms.join(" × ")}${split} = ${capped ? `${product} → ` : ""}${p.points}`);
  });
}

/** 叫分 games: each farmer base × multiplier, the landlord that times his opponents. */
function stakeLines(r, s) {
  const d = r.detail;
  const n = r.points.length;
  const farmer = r.points.findIndex((_, seat) => seat !== d.landlord);
  const farmerLabel = (farmer >= 0 && s.role(farmer)) || t("role.farmer");
  const lordLabel = s.role(d.landlord) || t("role.landlord");
  return [
    h("li", {}, t("sx.stake.each", { farmer: farmerLabel, m: r.multiplier.total, x: d.stake })),
    h("li", {}, t("sx.stake.lord", { lord: lordLabel, x: d.stake, n: n - 1, y: d.stake * (n - 1) })),
  ];
}

/** 找朋友's friend call "2 Qh" as "第2张♥Q". */
function callText(call) {
  const [n, card] = String(call || "").split(" ");
  return card ? t("sx.zpy.call", { n, c: cardName(card) }) : String(call || "");
}

/** 找朋友: the attackers' points with 扣底, what they mean for the levels, the stake. */
function trickLines(r, s) {
  const d = r.detail;
  const b = d.bottom || {};
  const out = [h("li", { class: "sx-zpy-points" }, t("sx.zpy.points", { tricks: d.attacker_trick_points }),
    b.captured ? t("sx.zpy.bottom", { b: b.points }) : "", ` = ${d.attacker_points}`)];
  out.push(h("li", { class: "sx-bottom", "data-multiplier": String(b.multiplier || 0) }, b.captured
    ? [t("sx.zpy.bottom.won", { name: seatName(s, b.winner), k: d.kitty_points, m: b.multiplier, b: b.points }),
      b.pairs ? t("sx.zpy.bottom.pairs", { n: b.pairs }) : ""]
    : t("sx.zpy.bottom.kept", { k: d.kitty_points })));
  if (d.unscored) out.push(h("li", {}, t("sx.zpy.unscored")));
  else out.push(h("li", {}, t(d.holds ? "sx.zpy.holds" : "sx.zpy.down", { n: d.level_gain })));
  const stake = r.multiplier.total;
  const dealer = r.points[d.dealer];
  if (stake && dealer) {
    out.push(h("li", {}, t("sx.zpy.stake", { s: stake, k: Math.abs(dealer) / stake, y: Math.abs(dealer) })));
  }
  const alone = d.friend === null || d.friend === undefined || d.friend === d.dealer;
  const call = callText(d.friend_call);
  out.push(h("li", {}, alone ? t("sx.zpy.alone", { call })
    : t("sx.zpy.friend", { call, name: seatName(s, d.friend) })));
  if (d.match_winner !== null && d.match_winner !== undefined) {
    out.push(h("li", { class: "sx-match" }, t("sx.zpy.match", { name: seatName(s, d.match_winner) })));
  } else if (d.next_dealer !== undefined && !d.unscored) {
    out.push(h("li", {}, t("sx.zpy.next", { name: seatName(s, d.next_dealer), level: d.next_level })));
  }
  return out;
}

/** 保皇: the places' sum and what it is worth, a solo's place, the doubling. */
function placeLines(r) {
  const d = r.detail;
  const base = d.base || {};
  const roles = { emperor: t("role.emperor"), guard: t("role.guard"), rebel: t("role.rebel") };
  const out = [];
  if (d.solo) {
    const place = placeLabel(base.emperor_place);
    out.push(h("li", {}, t(`sx.bh.solo.${d.solo === "open" ? "open" : "hidden"}`,
      { ...roles, place, e: base.emperor, r: base.rebel })));
  } else if (base.royal_places !== null && base.royal_places !== undefined) {
    out.push(h("li", {}, t("sx.bh.pair", { ...roles, sum: base.royal_places, g: base.guard,
      gx: factor(base.guard), e: base.emperor, r: base.rebel })));
    if (base.guard === 0) out.push(h("li", { class: "sx-draw" }, t("sx.bh.draw")));
  }
  const why = Object.entries(r.multiplier.causes || {}).filter(([, f]) => f !== 1);
  if (why.length && r.multiplier.total !== 1) {
    out.push(h("li", {}, t("sx.bh.factor", { f: r.multiplier.total,
      why: why.map(([k]) => causeLabel(k)).join(" · ") })));
  }
  return out;
}

/** The arithmetic, from whichever settlement words the result carries. */
function arithmeticEls(r, s) {
  const d = r.detail || {};
  if (r.ended !== "finished") return [];
  if (Array.isArray(d.pairs)) return pairLines(r, s);
  if (typeof d.stake === "number" && d.landlord !== null && d.landlord !== undefined) return stakeLines(r, s);
  if (typeof d.attacker_points === "number") return trickLines(r, s);
  if (d.base && Array.isArray(d.places)) return placeLines(r);
  return [];
}

/** What ended the game out of the ordinary: an escape, a forced quit, spring, no score. */
function noteEls(r, s) {
  const d = r.detail || {};
  const out = [];
  if (r.ended === "unscored") out.push(t("sx.unscored"));
  if (r.ended === "dissolved") out.push(t("sx.dissolved"));
  if (r.ended === "escape" && Number.isInteger(d.escape)) {
    out.push(t("sx.escape", { name: seatName(s, d.escape),
      role: t(`role.${d.role}`), m: d.M_act, x: d.X_esc }));
  }
  (r.penalties || []).forEach((x, seat) => {
    if (x) out.push(t("sx.penalty", { name: seatName(s, seat), x }));
  });
  if (r.ended === "finished" && (d.spring === "spring" || d.spring === "anti-spring")) {
    out.push(t(`sx.${d.spring}`));
  }
  return out.map((text) => h("p", { class: "sx-note" }, text));
}

/** The whole explanation: notes, the multiplier, 加倍, coefficients, the arithmetic. */
export function explainEl(s) {
  const r = s.result;
  const lines = arithmeticEls(r, s);
  const scored = r.ended === "finished" || r.ended === "escape";
  return h("div", { class: "sx-explain" },
    ...noteEls(r, s),
    scored ? multiplierEl(r) : null,
    scored ? doublingEl(r, s) : null,
    ...(scored ? coefficientEls(r) : []),
    lines.length ? h("div", { class: "sx-how" }, h("strong", {}, t("sx.how")),
      h("ul", {}, ...lines)) : null);
}
