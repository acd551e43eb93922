// A game's refusal in the player's language: an `error`'s `reason` and `params`
// (docs/protocol.md) rendered with the hall's table of sentences (/api/reasons, from
// src/cardhall/games/reasons.py, where `render` does the same in Python). An error
// without a reason, or one the table does not know, shows its `message` as sent.
import { lang } from "./i18n.js";

let table = null; // the table, once fetched
let loading = null; // its fetch, while under way or done

/** Fetch the table once (later calls share the fetch; a failed one is tried again next
 * time); the error handler never waits on it: until it is here, `message` is shown. */
export function loadReasons(api) {
  if (!loading) {
    loading = api("GET", "/api/reasons")
      .then((t) => { table = t; return t; })
      .catch(() => { loading = null; return null; });
  }
  return loading;
}

function word(key, value, l) {
  if (Array.isArray(value)) return value.length ? value.join(table.join[l]) : table.nothing[l];
  if (key === "phase") return (table.phases[value] || {})[l] || String(value);
  if (key === "group") return (table.groups[value] || {})[l] || String(value);
  return String(value);
}

/** The sentence for `reason` with `params` in language `l`, or null if it cannot be said. */
export function render(reason, params, l = lang()) {
  const entry = table && table.reasons && table.reasons[reason];
  if (!entry) return null;
  let missing = false;
  const text = entry[l].replace(/\{(\w+)\}/g, (m, k) => {
    if (!(k in params)) { missing = true; return m; }
    return word(k, params[k], l);
  });
  return missing ? null : text;
}

/** What to show for an `error` message: its reason in the player's language if known. */
export function refusalText(msg) {
  return (msg.reason && msg.params && render(msg.reason, msg.params)) || msg.message;
}
