// What the secondary screens share: variant names, refusal texts, number and date
// formats, and the screen frame (a heading and a status line).
import { lang, t } from "../i18n.js";
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

/** The locale of numbers and dates: the browser's own where it is of the page's language
 * (en-GB reads 5 Mar, en-US Mar 5), else the page's language. */
export function locale() {
  const own = (navigator.languages || []).find((l) => l.split("-")[0] === lang());
  return own || (lang() === "en" ? "en" : "zh-CN");
}

export function fmtNumber(n) {
  return Number(n).toLocaleString(locale());
}

/** A date and time, the month by name: never a bare 05/03, read as May or as March. */
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
