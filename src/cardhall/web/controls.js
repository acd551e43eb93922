// The action row under the table: 不出 / 提示 / 出牌 in a play phase (出牌 sends any
// selection; the game's refusal says why one is not a legal play; cards with several readings open a
// chooser, unless 提示 picked the reading: from the listed plays at once, from the plays
// diagram once the server has named the readings), a card pick from the hand for burying,
// a picker of drawn cards where the choice is a card (picks.js: 斗帝主's kitty, 找朋友's
// friend call, 保皇's guard call), and one labelled button for every other action. Every
// set-up decision opens with a line saying what it does (phasenotes.js).
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { actionLabel } from "./actions.js";
import { fromDiagram, readingsFor, selectionText } from "./judge.js";
import { chooserEl, readingName } from "./readings.js";
import { pickerFor } from "./picks.js";
import { phaseNote } from "./phasenotes.js";
import { nameText } from "./names.js";

/** Verbs whose argument is the selected cards: the button sends "verb card card …". */
const PICK_VERBS = ["bury"];
/** More buttons than this for one verb wrap in a group of their own. */
const MANY = 6;

function button(id, label, onclick, { primary = false, disabled = false, key = null } = {}) {
  return h("button", { type: "button", id, class: primary ? "primary" : null, disabled,
    "aria-keyshortcuts": key, onclick }, label);
}

/** One button per action, a verb's long list in a wrapping group under its name (no
 * dropdown: every choice stays one tap, and visible). */
function choiceButtons(view, actions, ui) {
  const out = [];
  const byVerb = new Map();
  for (const a of actions) {
    const verb = a.replace(/^@\d+\s+/, "").split(" ")[0];
    if (!byVerb.has(verb)) byVerb.set(verb, []);
    byVerb.get(verb).push(a);
  }
  for (const [verb, list] of byVerb) {
    const buttons = list.map((a) => h("button", { type: "button", class: "act", "data-action": a,
      disabled: ui.busy(), onclick: () => ui.send(a) }, actionLabel(a, view.variant, view.phase)));
    if (list.length <= MANY) out.push(...buttons);
    else {
      out.push(h("div", { class: "many", role: "group", "data-verb": verb,
        "aria-label": actionLabel(verb, view.variant, view.phase) }, ...buttons));
    }
  }
  return out;
}

export function controlsEl(s, ui) {
  const view = s.view;
  const box = h("div", { class: "controls", role: "toolbar", "aria-label": t("table.play") });
  const reason = h("p", { class: "reason", role: "status", "aria-live": "polite" });
  if (s.phase === "playing" && view.auto[s.seat]) {
    // On 托管 the bot answers for him: no play buttons to press by mistake, only the
    // way back (the bar's button says the same).
    reason.textContent = t("table.autoplaying");
    box.append(reason);
    if (!view.auto_locked[s.seat]) {
      box.append(button("auto-off", t("table.auto.off"), () => ui.autoOff(),
        { disabled: ui.busy() }));
    }
    return box;
  }
  if (s.phase !== "playing" || !view.acting.includes(s.seat)) {
    const acting = view.acting.map((i) => s.players[i] && nameText(s.players[i].name))
      .filter(Boolean);
    if (s.phase === "playing" && acting.length) {
      reason.textContent = acting.length === 1 ? t("table.wait", { name: acting[0] }) : t("table.waitall");
    }
    box.append(reason);
    return box;
  }
  const legal = view.legal;
  const plays = legal.filter((a) => a.startsWith("play "));
  const isPlay = plays.length > 0 || Boolean(view.plays);
  const picks = legal.filter((a) => PICK_VERBS.includes(a.split(" ")[0]));
  const others = legal.filter((a) => !a.startsWith("play ") && !picks.includes(a) && a !== "pass");
  const sel = ui.hand.selected();
  if (isPlay) {
    const readings = readingsFor(view, sel);
    const hinted = readings.includes(ui.hinted()) ? ui.hinted() : null;
    const action = hinted || (readings.length === 1 ? readings[0] : null);
    if (legal.includes("pass")) {
      box.append(button("pass", actionLabel("pass", view.variant, "play"), () => ui.send("pass"),
        { disabled: ui.busy(), key: "X" }));
    }
    box.append(button("hint", t("table.hint"), () => ui.hint(), { key: "H" }));
    // From the diagram the one text is the bare cards: the server refuses them with
    // their readings if they have several, and the chooser opens with those.
    const ask = { choose: fromDiagram(view) };
    // Cards that are no legal play are sent all the same when 出牌 is pressed: the game
    // refuses them, changing nothing, and says why in its own terms (follow suit, does
    // not beat, not a combination…), which the page could only guess at.
    const play = () => {
      if (action) ui.send(action, ask);
      else if (readings.length) ui.choose(readings);
      else ui.send(`play ${selectionText(view, sel)}`);
    };
    const playButton = button("play", t("table.play"), play,
      { primary: true, disabled: ui.busy() || !sel.length, key: "P" });
    playButton.dataset.legal = readings.length ? "1" : "0"; // drawn paler when not
    box.append(playButton);
    if (hinted && readings.length > 1) reason.textContent = readingName(hinted);
    if (ui.choices()) {
      box.append(chooserEl(ui.choices(), (a) => ui.send(a), () => ui.choose(null)));
    }
  } else if (picks.length) {
    const verb = picks[0].split(" ")[0];
    // The listed burials are suggestions (legal_complete false): any detail.bury cards.
    const need = view.detail[verb] || picks[0].split(" ").length - 1;
    const ok = sel.length === need;
    // The count stays on the button once the reason line has nothing more to say.
    box.append(button("pick", `${actionLabel(verb, view.variant, view.phase)} ${sel.length}/${need}`,
      () => ui.send(`${verb} ${sel.join(" ")}`), { primary: true, disabled: ui.busy() || !ok }));
    if (!ok) reason.textContent = t("table.pick", { n: need, k: sel.length });
  } else if (legal.includes("pass")) {
    others.unshift("pass");
  }
  const picker = isPlay ? null : pickerFor(view, others, ui, (rest) => choiceButtons(view, rest, ui));
  box.append(...(picker ? [picker] : choiceButtons(view, others, ui)));
  const note = isPlay ? "" : phaseNote(view, legal);
  // A line of its own: the paragraph spans the row, its text box stays readable.
  if (note) box.prepend(h("p", { class: "note" }, h("span", {}, note)));
  if (ui.error()) reason.textContent = ui.error();
  box.append(reason);
  return box;
}
