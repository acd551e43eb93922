// What each action is called on a button, looked up from the most specific key to the
// least: the variant's own "phase:text" (its display hint `actions`, from /api/variants),
// then the catalogs' "act.phase:text", "act.text", the variant's own "verb", "act.verb";
// an argument that names cards is shown as cards. A new phase needs only new labels.
import { lang, t } from "./i18n.js";
import { cardName, splitCards } from "./cards.js";
import { display } from "./variants.js";

const known = (k) => t(`act.${k}`) !== `act.${k}`;

function cardsText(arg) {
  if (!/^[0-9TJQKAXDshcd ]+$/.test(arg) || arg === "none") return arg;
  return splitCards(arg).map(cardName).join(" ");
}

/** The variant's own label for `key`, its {placeholders} filled; null if it has none. */
function ownLabel(variant, key, vars = {}) {
  const label = display(variant).actions[key];
  if (!label) return null;
  return label[lang() === "en" ? "en" : "zh"].replace(/\{(\w+)\}/g,
    (m, k) => (k in vars ? String(vars[k]) : m));
}

/** The button label of an action text in a variant's phase. */
export function actionLabel(text, variant, phase) {
  const plain = text.replace(/^@\d+\s+/, "");
  const own = ownLabel(variant, `${phase}:${plain}`);
  if (own) return own;
  for (const k of [`${phase}:${plain}`, plain]) {
    // A bare verb whose label names its argument ("take" as others see it, the cards
    // hidden): the label without the argument.
    if (known(k)) return t(`act.${k}`).replace(/\s*\{\w+\}/g, "");
  }
  const [verb, ...rest] = plain.split(" ");
  let arg = rest.join(" ");
  let n = "";
  if (verb === "call-friend") [n, arg] = [rest[0], rest.slice(1).join(" ")];
  const vars = { arg: verb === "eye" ? arg : cardsText(arg), n };
  return ownLabel(variant, verb, vars) || (known(verb) ? t(`act.${verb}`, vars) : plain);
}
