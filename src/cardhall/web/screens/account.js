// #/register and #/login. A guest who registers keeps his beans, record and games (the
// guest becomes the account); one who logs in elsewhere leaves the guest behind, as the
// form says.
import { registerScreen } from "../app.js";
import { t } from "../i18n.js";
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
