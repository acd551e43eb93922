// What the secondary screens share: variant names (the lobby's), refusal texts, number and date
// formats, and the screen frame (a heading and a status line). Strings in zh and en.
import { addStrings, lang, t } from "../i18n.js";
import { h } from "../dom.js";
import { variantName, variantNames } from "../lobby.js";

export { h, variantName };

/** Every variant's describe() by id (the lobby fetches it once per page). */
export function variants(ctx) {
  return variantNames(ctx.api);
}

/** The player, asking the server if the page has not yet (a screen opened by a reload
 * mounts before the shell's own /api/me has answered); null when nobody is logged in. */
export async function whoami(ctx) {
  return ctx.me() || ctx.refreshMe();
}

/** The text to show for an API refusal: the code's own text, else the server's words. */
export function errorText(err) {
  const key = `err.${err.code}`;
  const vars = { msg: err.message || "", s: (/(\d+) s\b/.exec(err.message || "") || [])[1] || "" };
  const text = t(key, vars);
  return text === key ? t("err.generic", vars) : text;
}

/** "+15" / "−25" / "0": a change of beans or points. */
export function signed(n) {
  if (n > 0) return `+${fmtNumber(n)}`;
  if (n < 0) return `−${fmtNumber(-n)}`;
  return "0";
}

/** The locale numbers and dates are written in: the player's own (the browser's list)
 * where it is of the page's language, so an en-GB reader gets 5 Mar and an en-US one
 * Mar 5; else the page's language itself. */
export function locale() {
  const own = (navigator.languages || []).find((l) => l.split("-")[0] === lang());
  return own || (lang() === "en" ? "en" : "zh-CN");
}

export function fmtNumber(n) {
  return Number(n).toLocaleString(locale());
}

/** A date and time, the month by name where the locale names it: never a bare 05/03
 * that one reader takes for May and another for March. */
export function fmtDate(iso) {
  if (!iso) return "—";
  return new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short" })
    .format(new Date(iso));
}

/**
 * The frame every screen draws into: a section with its heading and a polite status
 * line (loading, errors). Returns {section, body, status(text, kind)}.
 */
export function frame(root, name, title) {
  const status = h("p", { class: "sc-status", role: "status", "aria-live": "polite" });
  const body = h("div", { class: "sc-body" });
  const section = h("section", { class: `sc sc-${name}`, "aria-labelledby": `sc-${name}-h` },
    h("h1", { id: `sc-${name}-h` }, title), status, body);
  root.append(section);
  return {
    section, body,
    status(text, kind = "info") {
      status.textContent = text || "";
      status.dataset.kind = kind;
      status.hidden = !text;
    },
  };
}

/** A labelled field: <label for>, the <input> and an optional hint (its description). */
export function field(label, attrs, hint) {
  const input = h("input", attrs);
  const hintEl = hint ? h("small", { id: `${attrs.id}-hint`, class: "sc-hint" }, hint) : null;
  if (hintEl) input.setAttribute("aria-describedby", hintEl.id);
  return { input, el: h("div", { class: "sc-field" }, h("label", { for: attrs.id }, label), input, hintEl) };
}

/** A labelled <select> of [value, text] pairs. */
export function choice(id, label, options, value) {
  const select = h("select", { id, name: id });
  for (const [v, text] of options) {
    const o = h("option", { value: v }, text);
    if (v === value) o.selected = true;
    select.append(o);
  }
  return { select, el: h("div", { class: "sc-field" }, h("label", { for: id }, label), select) };
}

addStrings({
  zh: {
    "sc.loading": "加载中…", "sc.won": "胜", "sc.lost": "负",
    "err.name_taken": "这个名字（或和它看起来一样的名字）已经有人用了，换一个吧。",
    "err.auth_failed": "用户名或密码不对。",
    "err.bad_name": "名字要 2–16 个字，只能有汉字、字母、数字、_ 和 -，不能有看不见的字符，不能混用拉丁字母和其他文字的字母（汉字除外），不能以「游客」「机器人」「guest」「bot」开头。",
    "err.bad_password": "密码要 6–128 个字符。",
    "err.rate_limited": "操作太频繁了，请 {s} 秒后再试。",
    "err.banned": "这个账号已被封禁。",
    "err.relief_refused": "现在不能领救济：{msg}",
    "err.not_found": "没有找到：{msg}",
    "err.bad_token": "登录已失效，请重新登录。",
    "err.not_authenticated": "请先登录或以游客身份进入。",
    "err.malformed": "请求有误：{msg}",
    "err.session_expired": "登录已过期，请重新登录。",
    "err.locked_out": "这个账号密码错误次数太多，请 {s} 秒后再试（已登录的设备不受影响）。",
  },
  en: {
    "sc.loading": "Loading…", "sc.won": "Won", "sc.lost": "Lost",
    "err.name_taken": "That name (or one that looks the same) is taken; try another.",
    "err.auth_failed": "Wrong name or password.",
    "err.bad_name": "A name has 2–16 characters: letters, digits, _ and -; nothing invisible, no letters of two scripts (Chinese, Japanese and Korean go with any); it may not start with 游客, 机器人, guest or bot.",
    "err.bad_password": "A password has 6 to 128 characters.",
    "err.rate_limited": "Too many attempts; try again in {s} s.",
    "err.banned": "This account is banned.",
    "err.relief_refused": "No relief now: {msg}",
    "err.not_found": "Not found: {msg}",
    "err.bad_token": "Your session has ended; please log in again.",
    "err.not_authenticated": "Log in or enter as a guest first.",
    "err.malformed": "Bad request: {msg}",
    "err.session_expired": "Your session has expired; please log in again.",
    "err.locked_out": "Too many wrong passwords for this name; try again in {s} s (devices already logged in are not affected).",
  },
});
