// One line above a set-up decision saying what the phase is and what each answer does to
// the multiplier (issue 26), from the catalogs' "note.*" (each restates the variant's
// rules). A phase name means different things in different variants (五人's 加倍 is per
// pair of seats), so a line is looked up from the most specific key to the least:
// "variant.phase.verb", "phase.verb", "variant.phase", "phase".
import { t } from "./i18n.js";

const known = (k) => t(`note.${k}`) !== `note.${k}`;

/** The line for the seat's decision now (its legal actions `legal`), or "" if none. */
export function phaseNote(view, legal) {
  const verbs = [...new Set(legal.map((a) => a.replace(/^@\d+\s+/, "").split(" ")[0]))];
  const keys = [
    ...verbs.map((v) => `${view.variant}.${view.phase}.${v}`),
    ...verbs.map((v) => `${view.phase}.${v}`),
    `${view.variant}.${view.phase}`, view.phase,
  ];
  const key = keys.find(known);
  return key ? t(`note.${key}`) : "";
}
