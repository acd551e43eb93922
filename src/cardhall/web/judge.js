// Judging a selection of the own hand against the view's legal plays, without asking the
// server: from the listed "play …" texts when legal_complete, else by the walk over the
// `plays` diagram (docs/contract.md); every reading of a selection, the 提示 list and the
// cards a play takes.
import { RANKS, rankOf, splitCards } from "./cards.js";
import { display } from "./variants.js";

/** The hand cards a play text takes: "play 33344+5" → 3 3 3 4 4 5; "play 388+22=888+22"
 * → 3 8 8 2 2 (before "=" are the cards played); "play 3s 3s" → 3s 3s. */
export function playCards(text) {
  const body = text.replace(/^(@\d+\s+)?play\s+/, "").split("=")[0];
  return splitCards(body.replace(/\+/g, " "));
}

/** Whether plays name suited cards (找朋友) or bare ranks (the climbing games). */
function suited(view) {
  if (view.plays) return view.plays.labels.some((l) => l.length > 1);
  const p = view.legal.find((a) => a.startsWith("play "));
  return p ? playCards(p).some((c) => c.length > 1) : display(view.variant).suits;
}

function key(cards, isSuited) {
  return cards.map((c) => (isSuited ? c : rankOf(c))).sort().join(" ");
}

function walk(plays, counts) {
  let node = plays.root;
  for (const label of plays.labels) {
    const kids = node > 1 ? plays.nodes[node] : [];
    const k = counts[label] || 0;
    node = k < kids.length ? kids[k] : 0;
    if (node === 0) return false;
  }
  return node === 1;
}

function countBy(cards, isSuited) {
  const out = {};
  for (const c of cards) {
    const k = isSuited ? c : rankOf(c);
    out[k] = (out[k] || 0) + 1;
  }
  return out;
}

function rankText(counts) {
  return [...RANKS].map((r) => r.repeat(counts[r] || 0)).join("");
}

/** Whether the view gives its plays as the diagram (a long list): then the client knows
 * only whether cards are legal, and the server names their readings (docs/protocol.md). */
export function fromDiagram(view) {
  return !view.legal_complete && Boolean(view.plays);
}

/** The selected cards as a play's text names them: suited cards one by one (找朋友), the
 * climbing games' ranks run together ("5 5" → "55"). */
export function selectionText(view, selected) {
  return suited(view) ? selected.join(" ") : selected.map(rankOf).join("");
}

/** Whether a play text takes exactly the selected cards. */
export function takes(view, text, selected) {
  const isSuited = suited(view);
  return key(playCards(text), isSuited) === key(selected, isSuited);
}

/** Every reading of the selected cards as play texts ([] if no legal play): each listed
 * text that takes exactly these cards (3339 as 333+9 and as 3333); from the diagram, one
 * text of the cards alone, for which the server lists the readings if there are several. */
export function readingsFor(view, selected) {
  if (!selected.length) return [];
  const isSuited = suited(view);
  if (!fromDiagram(view)) {
    return view.legal.filter((a) => a.startsWith("play ") && takes(view, a, selected));
  }
  const counts = countBy(selected, isSuited);
  if (Object.keys(counts).some((k) => !view.plays.labels.includes(k))) return [];
  if (!walk(view.plays, counts)) return [];
  return [`play ${isSuited ? [...selected].sort().join(" ") : rankText(counts)}`];
}

/**
 * Every legal play in the order 提示 offers them: {cards, text} (text: the reading to
 * send, so that 提示 steps through each reading of the same cards; null from the diagram).
 */
export function hints(view, limit = 400) {
  if (view.legal_complete || !view.plays) {
    return view.legal.filter((a) => a.startsWith("play "))
      .map((text) => ({ cards: playCards(text), text }));
  }
  const { labels, nodes, root } = view.plays;
  const out = [];
  const pick = [];
  const dfs = (i, node) => {
    if (out.length >= limit) return;
    if (i === labels.length) {
      if (node === 1) out.push({ cards: pick.flat(), text: null });
      return;
    }
    const kids = node > 1 ? nodes[node] : [];
    for (let k = 0; k < kids.length; k++) {
      if (kids[k] === 0) continue;
      pick.push(Array(k).fill(labels[i]));
      dfs(i + 1, kids[k]);
      pick.pop();
    }
  };
  dfs(0, root);
  return out.sort((a, b) => a.cards.length - b.cards.length);
}

/** Pick hand cards (by index) matching `cards`: same suited card, or same rank. */
export function pickIndexes(hand, cards) {
  const used = new Set();
  const out = [];
  for (const c of cards) {
    const i = hand.findIndex((h, j) => !used.has(j) && (c.length > 1 ? h === c : rankOf(h) === c));
    if (i < 0) return null;
    used.add(i);
    out.push(i);
  }
  return out;
}
