// Strings in Chinese (the default) and English. The choice is kept in localStorage;
// setLang fires a "langchange" event on window so that screens can redraw.
const KEY = "cardhall.lang";
const strings = { zh: {}, en: {} };
let current = localStorage.getItem(KEY) === "en" ? "en" : "zh";

/** Merge more strings in: {zh: {key: text}, en: {key: text}}. */
export function addStrings(more) {
  for (const l of Object.keys(strings)) Object.assign(strings[l], more[l] || {});
}

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

addStrings({
  zh: {
    "app.title": "牌馆", "lang.switch": "English", "lang.switch.label": "Switch to English",
    "net.offline": "连接已断开，正在重连…（第 {n} 次）", "net.back": "已重新连接",
    "net.superseded": "您在别处登录了，此页已断开。", "net.kicked": "您已被请出大厅。",
    "net.ended": "此设备的登录已结束（退出、被踢下线或改了密码），请重新登录。",
    "net.expired": "登录已过期，请重新登录。",
    "nav.lobby": "大厅", "nav.login": "登录", "nav.register": "注册", "nav.profile": "我的",
    "nav.leaderboard": "排行榜", "nav.history": "战绩", "nav.rules": "规则", "nav.logout": "退出",
    "nav.label": "主菜单",
    "err.generic": "出错了：{msg}", "beans": "欢乐豆", "notfound": "没有这个页面",
    "badlink": "这个链接不完整或有误（地址里的 % 编码无效）",
  },
  en: {
    "app.title": "cardhall", "lang.switch": "中文", "lang.switch.label": "切换到中文",
    "net.offline": "Connection lost, reconnecting… (attempt {n})", "net.back": "Reconnected",
    "net.superseded": "You signed in elsewhere; this page is disconnected.",
    "net.kicked": "You were removed from the hall.",
    "net.ended": "This device's session has ended (logged out, logged out from another device, or the password was changed): please log in again.",
    "net.expired": "Your session has expired: please log in again.",
    "nav.lobby": "Lobby", "nav.login": "Log in", "nav.register": "Register", "nav.profile": "Profile",
    "nav.leaderboard": "Leaderboard", "nav.history": "History", "nav.rules": "Rules",
    "nav.logout": "Log out", "nav.label": "Main menu", "err.generic": "Something went wrong: {msg}",
    "beans": "beans",
    "notfound": "No such page",
    "badlink": "This link is cut short or mistyped (a % escape in the address is invalid)",
  },
});
document.documentElement.lang = current === "zh" ? "zh-CN" : "en";
