// A game's refusal in the player's language: an `error`'s `reason` and `params`
// (docs/protocol.md) rendered with the hall's table of sentences (/api/reasons, from
// src/cardhall/games/reasons.py, where `render` does the same in Python). An error
// without a reason, or one the table does not know, shows its `message` as sent.
import { lang, t } from "./i18n.js";

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

// The hall's own refusals have no game reason: each code has its sentence ("code.*"), so a
// Chinese page never shows the server's English. Where the code says too little (illegal
// without a reason, not_allowed), the English page keeps the hall's message.
const VAGUE = new Set(["illegal", "not_allowed"]);

/** What to show for an `error` message: its reason in the player's language if known,
 * else its code's sentence (the hall's own message on an English page where the code is
 * vague), else the message as sent. */
export function refusalText(msg) {
  const said = msg.reason && msg.params && render(msg.reason, msg.params);
  if (said) return said;
  const key = `code.${msg.code}`;
  if (t(key) === key) return msg.message;
  return lang() === "en" && VAGUE.has(msg.code) && msg.message ? msg.message : t(key);
}
