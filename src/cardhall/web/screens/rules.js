// #/rules and #/rules/VARIANT: the rules of every game in the project's own words,
// from docs/rules/ (built into ../rules/*.json by scripts/web_rules.py, checked in).
// The page follows the hall's language; the other language is one click away.
import { registerScreen } from "../app.js";
import { lang, setLang, t } from "../i18n.js";
import { errorText, frame, h } from "./common.js";

const cache = new Map();

/** A rules page (or the index) as built: {title: {zh, en}, zh, en}; fetched once. */
export async function load(name) {
  if (!cache.has(name)) {
    const url = new URL(`../rules/${name}.json`, import.meta.url);
    cache.set(name, fetch(url).then((res) => {
      if (!res.ok) {
        cache.delete(name);
        const err = new Error(name);
        err.status = res.status;
        err.code = res.status === 404 ? "not_found" : "http";
        throw err;
      }
      return res.json();
    }));
  }
  return cache.get(name);
}

/** Every page, as a list that folds away once a page is open (it is long on a phone). */
function pageList(index, current) {
  const box = h("details", { class: "sc-rules-nav" },
    h("summary", {}, t("rules.all"), current ? "" : ` (${index.length})`),
    h("nav", { "aria-label": t("rules.all") }, h("ul", {}, index.map((p) => h("li", {},
      h("a", { href: `#/rules/${p.id}`, "aria-current": p.id === current ? "page" : null },
        p.title[lang()] || p.title.zh))))));
  box.open = !current;
  return box;
}

registerScreen("rules", {
  mount(root, ctx, params) {
    const name = params[0] || "";
    const f = frame(root, "rules", t("rules.title"));
    const heading = f.section.querySelector("h1");
    f.status(t("sc.loading"));
    const other = lang() === "zh" ? "en" : "zh";
    Promise.all([load("index"), name ? load(name) : null]).then(([index, page]) => {
      f.status("");
      f.body.append(pageList(index, name));
      if (!page) return;
      heading.textContent = `${t("rules.title")} · ${page.title[lang()]}`;
      const text = h("article", { class: "sc-rules-text", lang: lang() === "zh" ? "zh-CN" : "en" });
      text.innerHTML = page[lang()]; // the project's own docs, built by scripts/web_rules.py
      f.body.append(
        h("p", { class: "sc-actions" },
          h("button", { type: "button", lang: other === "zh" ? "zh-CN" : "en",
            onclick: () => setLang(other) }, t(`rules.read.${other}`)),
          h("a", { class: "sc-button", href: "#/" }, t("nav.lobby"))),
        text);
      f.section.dataset.loaded = name;
    }, (err) => f.status(err.status === 404 ? t("rules.missing", { name }) : errorText(err), "error"));
  },
});
