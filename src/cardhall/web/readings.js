// A play reading in words, for the chooser 出牌 opens when the cards read more than one
// way (癞子: 3339 as 三带一 333+9 or as the soft bomb 3333). The kind is named from the
// reading's own shape, so the words follow the text the server will apply.
import { t } from "./i18n.js";
import { cardName, rankOf, splitCards } from "./cards.js";
import { h } from "./dom.js";

/** The kind word of a reading: main part and kickers as the cards stand. */
function kindOf(main, kickers, soft) {
  const counts = {};
  for (const c of main) counts[rankOf(c)] = (counts[rankOf(c)] || 0) + 1;
  const sizes = new Set(Object.values(counts));
  const n = Object.keys(counts).length;
  if (main.length === 2 && counts.X && counts.D) return "rocket";
  if (sizes.size !== 1) return "other";
  const k = [...sizes][0];
  if (k >= 4 && n === 1) return kickers.length ? "four2" : soft ? "soft" : "bomb";
  if (k === 3) {
    if (n > 1) return kickers.length ? "plane+" : "plane";
    return ["trio", "trio1", "trio2"][kickers.length] || "other";
  }
  if (k === 2) return n === 1 && !kickers.length ? "pair" : n >= 3 ? "pairs" : "other";
  if (k === 1) return n === 1 ? "single" : n >= 5 ? "straight" : "other";
  return "other";
}

const text = (cards) => cards.map(cardName).join(" ");

/** "play 3339=3333" → "软炸 3 3 3 3（3 3 3 9 当作 3 3 3 3）"; "play 333+9=333+9" → "三带一 3 3 3 9". */
export function readingName(action) {
  const body = action.replace(/^(@\d+\s+)?play\s+/, "");
  const [played, stands = played] = body.split("=");
  const [main, kickers = ""] = stands.split("+");
  const soft = played.replace("+", "") !== stands.replace("+", "");
  const all = splitCards(stands.replace("+", " "));
  const kind = t(`kind.${kindOf(splitCards(main), splitCards(kickers), soft)}`);
  const as = soft ? t("reading.as", { cards: text(splitCards(played.replace("+", " "))),
    as: text(all) }) : "";
  return `${kind} ${text(all)}${as}`;
}

/**
 * The chooser: one button per reading, and 取消. A modal group under the controls;
 * the first reading takes the focus, Esc (table.js's keys) or 取消 closes it.
 */
export function chooserEl(readings, onPick, onCancel) {
  const title = h("p", { id: "reading-title" }, t("reading.title"));
  return h("div", { class: "chooser", role: "dialog", "aria-modal": "true",
    "aria-labelledby": "reading-title" }, title,
  ...readings.map((a) => h("button", { type: "button", class: "reading", "data-action": a,
    onclick: () => onPick(a) }, readingName(a))),
  h("button", { type: "button", class: "cancel", onclick: onCancel }, t("reading.cancel")));
}
