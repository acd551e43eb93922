// Run in every page of tests/web/test_english.py before the page's own scripts (an init
// script): after every change of the DOM it reads what a player sees and keeps each
// text that is in the wrong language in window.langFindings. What counts as seen: the
// text of every rendered element (options of a rendered <select> included), the
// attributes a browser shows or says (aria-label, aria-valuetext, title, placeholder,
// alt) and the document's title. What is wrong:
// - in English (<html lang="en">): any CJK character;
// - in either language: a raw id (a variant id, a snake_case key such as open_guard);
// - in Chinese: a lower-case Latin word or a Latin key before a × (a key the page did
//   not name: "show", "stake×2"), except in <code> (the rules' action notation, such as
//   `call 7s`) and the hall's name, cardhall.
// The allow-list: text inside an element that declares itself of the other language
// (lang="zh-CN" on the language switch, which names Chinese in Chinese, and on the
// Chinese terms the English rules gloss; lang="en" on 'English' and on 'cardhall' in
// the Chinese header), and the share link (an address). Player-chosen names need none:
// the test's players choose Latin names, and guests and bots are named by the hall.
(() => {
  const CJK = /[\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\u3000-\u303f]/;
  const RAW = /\b(?:ddz[0-9]\w*|ddz_\w+|baohuang|zhaopengyou|[a-z][a-z0-9]*_[a-z0-9_]+)\b/;
  const LATIN_WORD = /(?:^|[^A-Za-z])[a-z]{3,}(?![A-Za-z])|(?:^|[^\w])[A-Za-z_]\w*×/;
  const ATTRS = ["aria-label", "aria-valuetext", "title", "placeholder", "alt"];
  const found = new Map();
  window.langFindings = [];
  window.langPhases = {}; // every phase a table was drawn in (the test shows it walked them)

  function where(el) {
    const path = [];
    for (let e = el; e && e.nodeType === 1 && path.length < 4; e = e.parentElement) {
      let s = e.tagName.toLowerCase();
      if (e.id) s += `#${e.id}`;
      else if (e.classList.length) s += `.${[...e.classList].slice(0, 2).join(".")}`;
      path.unshift(s);
    }
    const app = document.getElementById("app");
    return `${app ? app.dataset.screen : "?"}: ${path.join(" > ")}`;
  }

  function allowed(el) {
    const own = el.closest("[lang]");
    if (own && own !== document.documentElement
        && own.lang.split("-")[0] !== document.documentElement.lang.split("-")[0]) return true;
    return Boolean(el.closest("a.share"));
  }

  /** What is wrong with `text` shown in `el` (null: nothing). Code (the rules' action
   * notation: `call 7s`) and the hall's name are Latin in Chinese too. */
  function problem(text, el) {
    if (!text || !text.trim()) return null;
    const zh = document.documentElement.lang.startsWith("zh");
    if (!zh && CJK.test(text)) return "CJK in English";
    if (RAW.test(text)) return "raw id";
    if (zh && !(el && el.closest("code"))
        && LATIN_WORD.test(text.replace(/\bcardhall\b/g, ""))) return "untranslated key in Chinese";
    return null;
  }

  function note(kind, text, el) {
    const key = `${kind}|${text.replace(/\d+/g, "#")}|${where(el)}`;
    if (found.has(key)) return;
    found.set(key, true);
    window.langFindings.push({ kind, text: text.trim().slice(0, 160), where: where(el),
      lang: document.documentElement.lang });
  }

  function seen(el) {
    const box = el.closest("select") || el;
    return box.checkVisibility({ checkVisibilityCSS: true, checkOpacity: false });
  }

  function scan() {
    const table = document.querySelector(".table[data-phase]");
    if (table) window.langPhases[table.dataset.phase] = true;
    const t = problem(document.title);
    if (t) note(t, document.title, document.documentElement);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || ["SCRIPT", "STYLE"].includes(el.tagName)) continue;
      const kind = problem(n.data, el);
      if (kind && !allowed(el) && seen(el)) note(kind, n.data, el);
    }
    for (const el of document.body.querySelectorAll(ATTRS.map((a) => `[${a}]`).join(","))) {
      for (const a of ATTRS) {
        const kind = problem(el.getAttribute(a), el);
        if (kind && !allowed(el) && seen(el)) note(kind, `${a}=${el.getAttribute(a)}`, el);
      }
    }
  }

  window.langScan = scan;
  const observe = () => {
    new MutationObserver(scan).observe(document.documentElement, {
      subtree: true, childList: true, characterData: true, attributes: true,
      attributeFilter: ["hidden", "class", "open", "lang", ...ATTRS],
    });
    scan();
  };
  if (document.body) observe();
  else document.addEventListener("DOMContentLoaded", observe);
})();
