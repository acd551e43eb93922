// Words in Chinese (the default) and English: one catalog per language (lang/*.json: key
// → text, "{name}" a placeholder), loaded before any importing module runs, so every
// screen finds its words ready; a translator never edits code. setLang fires
// "langchange" on window so that screens can redraw.
const KEY = "cardhall.lang";

/** A catalog; a failed load leaves it empty (keys show) and says so in the console. */
async function catalog(l) {
  try {
    const res = await fetch(new URL(`lang/${l}.json`, import.meta.url));
    if (res.ok) return await res.json();
    console.error(`lang/${l}.json: HTTP ${res.status}`);
  } catch (err) {
    console.error(`lang/${l}.json:`, err);
  }
  return {};
}

const [zh, en] = await Promise.all([catalog("zh"), catalog("en")]);
const strings = { zh, en };
let current = localStorage.getItem(KEY) === "en" ? "en" : "zh";

/** The text for key in the current language; {name} placeholders take vars.name. */
export function t(key, vars = {}) {
  const text = strings[current][key] ?? strings.zh[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

/** The keys with Chinese but no English (tests/web/test_english.py wants none). */
export function untranslated() {
  return Object.keys(strings.zh).filter((k) => !(k in strings.en));
}

export function lang() {
  return current;
}

export function setLang(l) {
  current = l === "en" ? "en" : "zh";
  localStorage.setItem(KEY, current);
  document.documentElement.lang = current === "zh" ? "zh-CN" : "en";
  window.dispatchEvent(new Event("langchange"));
}

document.documentElement.lang = current === "zh" ? "zh-CN" : "en";
