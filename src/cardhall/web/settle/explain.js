// How a game's points came about, in words, from the engine's Result alone (docs/contract.md
// "The result"; each game's own words in result.detail): every multiplier cause with its
// count, each seat's 加倍, the variant's coefficient, the arithmetic (base × multiplier =
// points), and what only some games have: 找朋友's 扣底 and levels, 保皇's places, an
// escape's penalty, a forced quit's −40. What is shown follows the fields the result
// carries (pairs, stake, attacker_points, places…), never the variant's id, so a new
// variant that settles like an old one reads like it. The table's settlement and the
// replay both draw it (../settle/board.js).
import { addStrings, t } from "../i18n.js";
import { h } from "../dom.js";
import { cardName } from "../cards.js";
import { nameText } from "../names.js";

const CAUSES = {
  zh: { contract: "叫分", bombs: "炸弹", bomb: "炸弹", rocket: "王炸", robs: "抢地主", show: "明牌",
    spring: "春天", "anti-spring": "反春", M0: "底倍", soft: "软炸", hard: "硬炸", pure: "纯癞子炸",
    reveal: "亮明身份", double: "加倍", doubles: "加倍", open_solo: "明独", hidden_solo: "暗独",
    solo: "独保", rebellion: "造反", open_guard: "明保", stake: "档数", M: "倍数" },
  en: { contract: "bid", bombs: "bombs", bomb: "bombs", rocket: "rocket", robs: "robs", show: "open hand",
    spring: "spring", "anti-spring": "anti-spring", M0: "base", soft: "soft bombs",
    hard: "hard bombs", pure: "pure wild bombs", reveal: "identity revealed", double: "doubling",
    doubles: "doubling", open_solo: "open solo", hidden_solo: "secret solo", solo: "solo",
    rebellion: "rebellion", open_guard: "open guard", stake: "bands", M: "multiplier" },
};
addStrings(Object.fromEntries(Object.entries(CAUSES).map(([l, m]) => [l, Object.fromEntries(
  Object.entries(m).map(([k, v]) => [`cause.${k}`, v]))])));

addStrings({
  zh: {
    "sx.mult": "倍数", "sx.colon": "：", "sx.zpy.call": "第{n}张{c}", "sx.mult.none": "没有翻倍", "sx.times": "{n} 次", "sx.count": "{n} 个",
    "sx.doubling": "加倍", "sx.doubled": "{name} ×2", "sx.nodouble": "没有人加倍",
    "sx.coef": "癞子场系数 ×{c}：每对输赢都乘 {c}", "sx.split": "两个地主：每对输赢 ÷{n}",
    "sx.capped": "封顶：地主最多 {cap} 分，各对按比例减少", "sx.how": "计分",
    "sx.pair": "{lord} 对 {farmer}：", "sx.pair.double": "{name}加倍",
    "sx.stake.each": "每位{farmer}：底分 1 × 倍数 {m} = {x} 分",
    "sx.stake.lord": "{lord}：{x} × {n} 家 = {y} 分",
    "sx.zpy.points": "闲家得分 = 吃分 {tricks}", "sx.zpy.bottom": " + 扣底 {b}",
    "sx.zpy.bottom.won": "扣底：{name} 赢了最后一墩，底牌 {k} 分 × {m} = {b} 分",
    "sx.zpy.bottom.pairs": "（{n} 对）",
    "sx.zpy.bottom.kept": "底牌 {k} 分：最后一墩不是闲家赢的，不算",
    "sx.zpy.holds": "不到 120 分：庄家方守住，各升 {n} 级",
    "sx.zpy.down": "满 120 分：庄家下台，闲家各升 {n} 级",
    "sx.zpy.stake": "档数 {s}：每人 1 × {s} = {s} 分，庄家 {s} × {k} = {y} 分",
    "sx.zpy.friend": "找朋友 {call}：{name} 是朋友", "sx.zpy.alone": "找朋友 {call}：庄家一打四",
    "sx.zpy.next": "下一局：{name} 坐庄，打 {level}", "sx.zpy.match": "{name} 打过 A，赢得整场！",
    "sx.zpy.unscored": "全部托管：级别不变",
    "sx.bh.pair": "{emperor}与{guard}名次之和 {sum}：{guard} 6 − {sum} = {g} 分，{emperor} 2 × {gx} = {e} 分，{rebel}每人 {r} 分",
    "sx.bh.solo.open": "明独：{emperor}{place}，{emperor} {e} 分，其余每人 {r} 分",
    "sx.bh.solo.hidden": "暗独：{emperor}{place}，{emperor} {e} 分，其余每人 {r} 分",
    "sx.bh.factor": "再 ×{f}（{why}）", "sx.bh.draw": "名次之和正好是 6：平局，没人得分",
    "sx.escape": "{name}（{role}）逃跑：按实际倍数 ×{m}，罚 {x} 分，分给其他人",
    "sx.penalty": "{name} 强行退出：{x} 分（不归任何人）",
    "sx.spring": "春天：农民一张牌也没出，×2", "sx.anti-spring": "反春：地主只出了一手，×2",
    "sx.unscored": "所有人都在托管：本局不计分，不收服务费", "sx.dissolved": "流局：没有输赢",
  },
  en: {
    "sx.mult": "Multiplier", "sx.colon": ": ", "sx.zpy.call": "copy {n} of {c}",
    "sx.mult.none": "nothing doubled", "sx.times": "{n}×",
    "sx.count": "{n}", "sx.doubling": "Doubling", "sx.doubled": "{name} ×2",
    "sx.nodouble": "nobody doubled",
    "sx.coef": "Wild-card room coefficient ×{c}: every pair's stake times {c}",
    "sx.split": "Two landlords: every pair's stake ÷{n}",
    "sx.capped": "Cap: the landlord wins or loses at most {cap} points; every pair scaled down",
    "sx.how": "Scoring", "sx.pair": "{lord} vs {farmer}: ", "sx.pair.double": "{name} doubled",
    "sx.stake.each": "Each {farmer}: base 1 × multiplier {m} = {x}",
    "sx.stake.lord": "{lord}: {x} × {n} = {y} (one share per opponent)",
    "sx.zpy.points": "Attackers' points = {tricks} in tricks", "sx.zpy.bottom": " + {b} from the kitty",
    "sx.zpy.bottom.won": "Kitty: {name} won the last trick, the kitty's {k} points × {m} = {b}",
    "sx.zpy.bottom.pairs": " ({n} pairs)",
    "sx.zpy.bottom.kept": "Kitty's {k} points: the attackers did not win the last trick, so they do not count",
    "sx.zpy.holds": "Under 120: the dealer's side holds; each of them gains {n} level(s)",
    "sx.zpy.down": "120 or more: the dealer steps down; each attacker gains {n} level(s)",
    "sx.zpy.stake": "Bands: {s}; each player 1 × {s} = {s}, the dealer {s} × {k} = {y}",
    "sx.zpy.friend": "Friend call {call}: {name} is the friend",
    "sx.zpy.alone": "Friend call {call}: the dealer played alone, one against four",
    "sx.zpy.next": "Next hand: {name} deals, level {level}",
    "sx.zpy.match": "{name} passed A and wins the match!",
    "sx.zpy.unscored": "Everyone on autoplay: no level moves",
    "sx.bh.pair": "{emperor}'s and {guard}'s places add up to {sum}: {guard} 6 − {sum} = {g}, {emperor} 2 × {gx} = {e}, each {rebel} {r}",
    "sx.bh.solo.open": "Open solo: {emperor} {place}; {emperor} {e}, everyone else {r}",
    "sx.bh.solo.hidden": "Secret solo: {emperor} {place}; {emperor} {e}, everyone else {r}",
    "sx.bh.factor": "then ×{f} ({why})", "sx.bh.draw": "The places add up to exactly 6: a draw, nobody scores",
    "sx.escape": "{name} ({role}) escaped: actual multiplier ×{m}, a penalty of {x} points, shared by the others",
    "sx.penalty": "{name} quit the game: {x} points (kept by nobody)",
    "sx.spring": "Spring: the farmers never played a card, ×2",
    "sx.anti-spring": "Anti-spring: the landlord played only once, ×2",
    "sx.unscored": "Everyone was on autoplay: not scored, no fee", "sx.dissolved": "No game: nobody wins or loses",
  },
});

/** 保皇's places, 1 … 5 (头客 … 大拉); null: play stopped before he went out. */
addStrings({
  zh: { "place.1": "头客", "place.2": "二客", "place.3": "三客", "place.4": "二拉", "place.5": "大拉",
    "place.none": "未出完" },
  en: { "place.1": "1st", "place.2": "2nd", "place.3": "3rd", "place.4": "4th", "place.5": "5th",
    "place.none": "still holding cards" },
});

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
      i ? " · " : "", t("sx.doubled", { name: nameText(s.seats[seat].name) })))
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
        const who = nameText(s.seats[seat].name);
        terms.push(`${factors[seat]} (${t("sx.pair.double", { name: who })})`);
        product *= factors[seat];
      }
    }
    if (coefficient !== 1) terms.push(String(coefficient));
    const split = lords > 1 ? ` ÷ ${lords}` : "";
    const capped = Math.abs(product - p.points) > 1e-9;
    return h("li", { class: "sx-pair", "data-farmer": String(p.farmer), "data-points": String(p.points) },
      t("sx.pair", { lord: nameText(s.seats[lord].name),
        farmer: nameText(s.seats[p.farmer].name) }),
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
  const name = (seat) => (seat === null || seat === undefined ? "" : nameText(s.seats[seat].name));
  const out = [h("li", { class: "sx-zpy-points" }, t("sx.zpy.points", { tricks: d.attacker_trick_points }),
    b.captured ? t("sx.zpy.bottom", { b: b.points }) : "", ` = ${d.attacker_points}`)];
  out.push(h("li", { class: "sx-bottom", "data-multiplier": String(b.multiplier || 0) }, b.captured
    ? [t("sx.zpy.bottom.won", { name: name(b.winner), k: d.kitty_points, m: b.multiplier, b: b.points }),
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
    : t("sx.zpy.friend", { call, name: name(d.friend) })));
  if (d.match_winner !== null && d.match_winner !== undefined) {
    out.push(h("li", { class: "sx-match" }, t("sx.zpy.match", { name: name(d.match_winner) })));
  } else if (d.next_dealer !== undefined && !d.unscored) {
    out.push(h("li", {}, t("sx.zpy.next", { name: name(d.next_dealer), level: d.next_level })));
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
    out.push(t("sx.escape", { name: nameText(s.seats[d.escape].name),
      role: t(`role.${d.role}`), m: d.M_act, x: d.X_esc }));
  }
  (r.penalties || []).forEach((x, seat) => {
    if (x) out.push(t("sx.penalty", { name: nameText(s.seats[seat].name), x }));
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
