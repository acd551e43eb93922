// A game's refusal in the player's language: an `error`'s `reason` and `params`
// (docs/protocol.md) rendered with the hall's table of sentences (/api/reasons, from
// src/cardhall/games/reasons.py, where `render` does the same in Python). An error
// without a reason, or one the table does not know, shows its `message` as sent.
import { addStrings, lang, t } from "./i18n.js";

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

// The hall's own refusals (docs/protocol.md, error codes) have no game reason: each code
// has its sentence here, so that a Chinese page never shows the server's English. Where
// the code says too little (illegal without a reason, not_allowed), the English page keeps
// the hall's message, which names the case.
addStrings({
  zh: {
    "code.stale": "牌局已经变了：请看清桌面再出", "code.busy": "服务器正忙，请再试一次",
    "code.rate_limited": "操作太频繁，请稍候再试", "code.not_your_turn": "还没轮到你",
    "code.not_seated": "你不在这张牌桌（或不在这个队列）", "code.unknown_table": "没有这张牌桌，或邀请码不对",
    "code.unknown_room": "没有这个房间", "code.forbidden": "你没有权限这样做（只有房主可以开始）",
    "code.not_allowed": "现在不能这样做", "code.illegal": "现在不能这样做",
    "code.internal": "服务器出错了，请再试一次", "code.malformed": "请求有误",
    "code.unknown_type": "请求有误", "code.too_large": "请求太大", "code.not_enough_beans": "欢乐豆不够",
  },
  en: {
    "code.stale": "The table has moved on: look again before you play", "code.busy": "The server is busy: try again",
    "code.rate_limited": "Too fast: wait a moment and try again", "code.not_your_turn": "It is not your turn",
    "code.not_seated": "You do not sit at this table (or wait in this queue)",
    "code.unknown_table": "No such table, or a wrong invite code", "code.unknown_room": "No such room",
    "code.forbidden": "You may not do that (only the owner starts)", "code.not_allowed": "Not allowed now",
    "code.illegal": "Not allowed now", "code.internal": "The server failed: try again",
    "code.malformed": "A malformed request", "code.unknown_type": "A malformed request",
    "code.too_large": "The request is too large", "code.not_enough_beans": "Not enough beans",
  },
});
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
