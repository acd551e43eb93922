// Card faces drawn with CSS from card text: suited ("3s", "Ts"), bare ranks ("3", as
// climbing plays are written) and the jokers "X" (小王) and "D" (大王).
import { t } from "./i18n.js";
import { display } from "./variants.js";

export const RANKS = "3456789TJQKA2XD";
const SUITS = { s: "♠", h: "♥", c: "♣", d: "♦" };
const SUIT_ORDER = "shcd";

export function rankOf(card) {
  return card[0];
}

export function suitOf(card) {
  return card.length > 1 ? card[1] : "";
}

function rankLabel(r) {
  return r === "T" ? "10" : r;
}

/** The accessible name: "♠3", "♥10", "大王" / "Big Joker", a bare rank "3". */
export function cardName(card) {
  const r = rankOf(card);
  if (r === "X" || r === "D") return t(`card.${r}`);
  return (SUITS[suitOf(card)] || "") + rankLabel(r);
}

/** Split card text ("33344", "3s 3s", "3s3h") into cards. */
export function splitCards(text) {
  if (!text) return [];
  const out = [];
  for (const part of text.trim().split(/[\s,]+/)) {
    for (let i = 0; i < part.length; i++) {
      if (i + 1 < part.length && SUITS[part[i + 1]]) {
        out.push(part[i] + part[i + 1]);
        i++;
      } else out.push(part[i]);
    }
  }
  return out;
}

/**
 * A card element. opts.button: a toggle button (the own hand); opts.wild: a 癞子;
 * opts.small: a compact face (the table, the seats); opts.stands: the rank a wild card
 * stands for in a play.
 */
export function cardEl(card, opts = {}) {
  const el = document.createElement(opts.button ? "button" : "span");
  const r = rankOf(card);
  const s = suitOf(card);
  el.className = "card";
  if (opts.small) el.classList.add("small");
  if (s === "h" || s === "d" || r === "D") el.classList.add("red");
  if (r === "X" || r === "D") el.classList.add("joker");
  if (opts.wild) el.classList.add("wild");
  el.dataset.card = card;
  const name = cardName(card) + (opts.stands ? `=${rankLabel(opts.stands)}` : "");
  if (opts.button) {
    el.type = "button";
    el.setAttribute("aria-pressed", "false");
  } else el.setAttribute("role", "img");
  el.setAttribute("aria-label", name);
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.setAttribute("aria-hidden", "true");
  if (r === "X" || r === "D") {
    corner.textContent = "JOKER";
    corner.classList.add("vertical");
  } else {
    // "10" is the one rank of two characters: set narrower, so that it shows whole in
    // the strip an overlapped card leaves (it read "1(" on a phone).
    corner.innerHTML = `<b${r === "T" ? ' class="ten"' : ""}>${rankLabel(r)}</b><i>${SUITS[s] || ""}</i>`;
  }
  el.append(corner);
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.setAttribute("aria-hidden", "true");
  pip.textContent = r === "X" || r === "D" ? "★" : SUITS[s] || rankLabel(r);
  el.append(pip);
  if (opts.wild) {
    const tag = document.createElement("span");
    tag.className = "wildtag";
    tag.setAttribute("aria-hidden", "true");
    tag.textContent = opts.stands ? rankLabel(opts.stands) : t("card.wild.tag");
    el.append(tag);
    el.title = t("card.wild");
  }
  return el;
}

/**
 * Sort for display, biggest first (as the halls fan a hand): by rank, then suit.
 * opts.wild puts the wild rank first; a variant sorted by trumps (its display hint
 * `sort: "trump"`, 找朋友) groups the trumps (jokers, level cards, then opts.trump's
 * suit; opts.level) before the other suits.
 */
export function sortCards(cards, variant, opts = {}) {
  const rank = (c) => RANKS.indexOf(rankOf(c));
  const suit = (c) => SUIT_ORDER.indexOf(suitOf(c));
  let group = () => 0;
  if (display(variant).sort === "trump") {
    group = (c) => {
      const r = rankOf(c);
      if (r === "D") return 0;
      if (r === "X") return 1;
      if (r === opts.level) return suitOf(c) === opts.trump ? 2 : 3;
      if (suitOf(c) === opts.trump) return 4;
      return 5 + suit(c);
    };
  } else if (opts.wild) {
    group = (c) => (rankOf(c) === opts.wild ? 0 : 1);
  }
  return [...cards].sort((a, b) => group(a) - group(b) || rank(b) - rank(a) || suit(a) - suit(b));
}
