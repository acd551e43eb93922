// The names the hall gives in Chinese (level titles, bots, guests: 游客 and six digits) in
// the reader's language, from GET /api/names, fetched once. A name a player chose is shown
// as he wrote it: the hall reserves 游客 and 机器人, so none is taken for one.
import { lang, t } from "./i18n.js";

let table = null; // {titles: {zh: en}, bots: {zh: en}, guest: {zh, en}}, once fetched
let loading = null;

/** Fetch the table once; a failure leaves the Chinese names (tried again next call). */
export function loadNames(api) {
  if (!loading) {
    loading = api("GET", "/api/names")
      .then((names) => { table = names; return names; })
      .catch(() => { loading = null; return null; });
  }
  return loading;
}

const english = () => lang() === "en" && table !== null;

/** A level title (or the bots' title) as the reader reads it. */
export function titleText(title) {
  return (english() && title && table.titles[title]) || title;
}

/** A player's name as the reader reads it: the hall's bots and guests in his language,
 * a chosen name as it is. */
export function nameText(name) {
  if (!english() || !name) return name;
  if (table.bots[name]) return table.bots[name];
  const { zh, en } = table.guest;
  return name.startsWith(zh) && /^\d+$/.test(name.slice(zh.length))
    ? `${en}${name.slice(zh.length)}` : name;
}

/** A bot by its rated name (planning, search: docs/rulings.md, "Skill ratings") in the
 * reader's words; a bot the catalog does not know keeps its name. */
export function botText(name) {
  const key = `bot.kind.${name}`;
  const said = t(key);
  return said === key ? name : said;
}
