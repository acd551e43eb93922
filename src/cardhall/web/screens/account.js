// #/register and #/login: the two account forms. A guest who registers keeps his beans,
// record and games (the server turns the guest behind the token into the account); a
// guest who logs in to another account leaves the guest behind, so the form says so.
import { registerScreen } from "../app.js";
import { addStrings, t } from "../i18n.js";
import { device } from "../net.js";
import { errorText, field, frame, h, whoami } from "./common.js";
import { nameText } from "../names.js";

function signedIn(ctx, f) {
  const me = ctx.me();
  f.body.append(
    h("p", {}, t("acct.signed_in", { name: nameText(me.name) })),
    h("div", { class: "sc-actions" },
      h("a", { class: "sc-button", href: "#/profile" }, t("nav.profile")),
      h("button", { type: "button", onclick: () => ctx.logout() }, t("acct.logout"))));
}

/** The shared form: name, password (twice when registering), submit, errors. */
function accountForm(ctx, f, kind) {
  const name = field(t("acct.name"), {
    id: `${kind}-name`, name: "name", autocomplete: "username", required: true,
    minlength: 2, maxlength: 16,
  }, kind === "register" ? t("acct.name.hint") : null);
  const password = field(t("acct.password"), {
    id: `${kind}-password`, name: "password", type: "password", required: true,
    autocomplete: kind === "register" ? "new-password" : "current-password",
    minlength: kind === "register" ? 6 : null, maxlength: 128,
  }, kind === "register" ? t("acct.password.hint") : null);
  const again = kind === "register" ? field(t("acct.password2"), {
    id: "register-password2", name: "password2", type: "password", required: true,
    autocomplete: "new-password", maxlength: 128,
  }) : null;
  const submit = h("button", { type: "submit", class: "primary big" },
    t(kind === "register" ? "acct.register" : "acct.login"));
  const form = h("form", { class: "sc-form", novalidate: true },
    name.el, password.el, again && again.el, h("div", { class: "sc-actions" }, submit));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (again && again.input.value !== password.input.value) {
      f.status(t("acct.mismatch"), "error");
      again.input.focus();
      return;
    }
    submit.disabled = true;
    f.status(t("sc.loading"));
    try {
      const body = { name: name.input.value.trim(), password: password.input.value };
      if (kind === "login" && device()) body.device = device();
      const done = await ctx.api("POST", `/api/${kind}`, body);
      ctx.setSession(done.token, done.player);
      await ctx.refreshMe();
      f.status("");
      ctx.navigate(kind === "register" ? "#/profile" : "#/");
    } catch (err) {
      f.status(errorText(err), "error");
      (err.code === "bad_password" ? password : name).input.focus();
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

function mount(kind) {
  return (root, ctx) => {
    const f = frame(root, kind, t(kind === "register" ? "acct.register.title" : "acct.login.title"));
    const draw = (me) => {
      if (me && !me.guest) {
        signedIn(ctx, f);
        return;
      }
      if (me && me.guest) {
        f.body.append(h("p", { class: "sc-note" },
          t(kind === "register" ? "acct.guest.keeps" : "acct.guest.leaves",
            { name: nameText(me.name) })));
      }
      f.body.append(accountForm(ctx, f, kind));
      const other = kind === "register" ? ["#/login", "acct.have"] : ["#/register", "acct.new"];
      f.body.append(h("p", {}, h("a", { href: other[0] }, t(other[1]))));
      f.section.querySelector("input").focus();
    };
    whoami(ctx).then(draw, (err) => f.status(errorText(err), "error"));
  };
}

registerScreen("register", { mount: mount("register") });
registerScreen("login", { mount: mount("login") });

addStrings({
  zh: {
    "acct.register.title": "注册", "acct.login.title": "登录",
    "acct.name": "用户名", "acct.password": "密码", "acct.password2": "再输一次密码",
    "acct.name.hint": "2–16 个字：汉字、字母、数字、_ 或 -",
    "acct.password.hint": "至少 6 个字符",
    "acct.register": "注册", "acct.login": "登录", "acct.logout": "退出登录",
    "acct.mismatch": "两次输入的密码不一样。",
    "acct.signed_in": "您已登录为 {name}。",
    "acct.guest.keeps": "您现在是游客 {name}：注册后，游客的欢乐豆、战绩和级别都会保留在新账号里。",
    "acct.guest.leaves": "您现在是游客 {name}：登录别的账号后就回不到这个游客了（想保留游客的欢乐豆，请改为注册）。",
    "acct.have": "已有账号？去登录", "acct.new": "没有账号？注册一个",
  },
  en: {
    "acct.register.title": "Register", "acct.login.title": "Log in",
    "acct.name": "Name", "acct.password": "Password", "acct.password2": "Password again",
    "acct.name.hint": "2–16 characters: letters, digits, _ or -",
    "acct.password.hint": "At least 6 characters",
    "acct.register": "Register", "acct.login": "Log in", "acct.logout": "Log out",
    "acct.mismatch": "The two passwords differ.",
    "acct.signed_in": "You are logged in as {name}.",
    "acct.guest.keeps": "You play as the guest {name}: registering keeps the guest's beans, record and level in the new account.",
    "acct.guest.leaves": "You play as the guest {name}: after logging in to another account this guest is gone (to keep its beans, register instead).",
    "acct.have": "Have an account? Log in", "acct.new": "No account yet? Register",
  },
});
