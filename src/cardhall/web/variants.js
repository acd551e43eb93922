// Every variant as /api/variants describes it: names, seats, deck, and the display hints a
// screen reads instead of switching on a variant's id (labels, sorting, facts shown,
// suited plays). Fetched once; a screen drawn before it arrives uses the plain hints.
import { lang } from "./i18n.js";

let variants = null;
let pending = null;

/** What a variant whose description is not (yet) known shows: no hint at all. */
const PLAIN = Object.freeze({ roles: {}, sort: "rank", facts: [], actions: {}, suits: false });

/** Every variant by id, fetched once: {id: describe()}. */
export function loadVariants(api) {
  if (variants) return Promise.resolve(variants);
  if (!pending) {
    pending = api("GET", "/api/variants").then((list) => {
      variants = Object.fromEntries(list.map((v) => [v.id, v]));
      return variants;
    }).finally(() => { pending = null; });
  }
  return pending;
}

/** A variant's description, or null before /api/variants has answered. */
export function variantInfo(id) {
  return (variants && variants[id]) || null;
}

/** A variant's display hints (PLAIN until known; PLAIN's for any it does not give). */
export function display(id) {
  const v = variantInfo(id);
  return v && v.display ? { ...PLAIN, ...v.display } : PLAIN;
}

/** A role's label as the variant declares it, in the reader's language; null if it
 * declares none (the shared i18n label applies). */
export function ownRoleLabel(id, role) {
  const label = display(id).roles[role];
  return label ? label[lang() === "en" ? "en" : "zh"] : null;
}
