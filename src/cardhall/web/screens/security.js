// On 我的 (the profile): the player's sessions, each with a revoke button, and for a
// registered player the password change, which ends every other session; revoking this
// page's own session is a logout.
import { t } from "../i18n.js";
import { errorText, field, fmtDate, h } from "./common.js";

/** A short name for a User-Agent: the browser and the system, else the text cut short. */
function agentName(agent) {
  if (!agent) return t("sec.unknown");
  const browser = /(Edg|Firefox|Chrome|Safari|MicroMessenger|python-httpx)\/?[\d.]*/.exec(agent);
  const os = /(Windows|Android|iPhone|iPad|Mac OS X|Linux)/.exec(agent);
  const name = [browser && browser[1].replace("Edg", "Edge"), os && os[1]].filter(Boolean).join(" · ");
  return name || agent.slice(0, 40);
}

function sessionRows(ctx, list, status, redraw) {
  return list.map((s) => {
    const revoke = h("button", { type: "button", class: "sc-revoke", "data-session": s.id },
      t(s.current ? "sec.revoke.current" : "sec.revoke"));
    revoke.addEventListener("click", async () => {
      if (s.current) {
        ctx.logout();
        return;
      }
      revoke.disabled = true;
      try {
        await ctx.api("DELETE", `/api/sessions/${encodeURIComponent(s.id)}`);
        status(t("sec.revoked"), "ok");
        redraw();
      } catch (err) {
        status(errorText(err), "error");
        revoke.disabled = false;
      }
    });
    return h("tr", { "data-session": s.id, "data-current": s.current ? "1" : "0" },
      h("td", {}, agentName(s.agent), s.current ? h("span", { class: "sc-badge" }, t("sec.this")) : null),
      h("td", {}, fmtDate(s.created)), h("td", {}, fmtDate(s.used)),
      h("td", {}, fmtDate(s.expires)), h("td", {}, revoke));
  });
}

/** The sessions table, loaded now and again after each revoke. */
function sessionsBlock(ctx, status) {
  const box = h("div", { class: "sc-scroll sc-sessions", id: "sessions" });
  const draw = async () => {
    try {
      const { sessions } = await ctx.api("GET", "/api/sessions");
      box.replaceChildren(h("table", { class: "sc-table" },
        h("caption", {}, t("sec.sessions")),
        h("thead", {}, h("tr", {}, ["sec.device", "sec.created", "sec.used", "sec.expires",
          "sec.action"].map((k) => h("th", { scope: "col" }, t(k))))),
        h("tbody", {}, sessionRows(ctx, sessions, status, draw))));
      box.dataset.loaded = "1";
    } catch (err) {
      status(errorText(err), "error");
    }
  };
  draw();
  return box;
}

function passwordForm(ctx, status, onChanged) {
  const old = field(t("sec.old"), {
    id: "pw-old", name: "old", type: "password", required: true,
    autocomplete: "current-password", maxlength: 128,
  });
  const next = field(t("sec.new"), {
    id: "pw-new", name: "new", type: "password", required: true,
    autocomplete: "new-password", minlength: 6, maxlength: 128,
  }, t("acct.password.hint"));
  const again = field(t("acct.password2"), {
    id: "pw-new2", name: "new2", type: "password", required: true,
    autocomplete: "new-password", maxlength: 128,
  });
  const submit = h("button", { type: "submit", class: "primary" }, t("sec.change"));
  const form = h("form", { class: "sc-form", id: "password-form", novalidate: true },
    h("h2", {}, t("sec.password")), old.el, next.el, again.el,
    h("div", { class: "sc-actions" }, submit));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (again.input.value !== next.input.value) {
      status(t("acct.mismatch"), "error");
      again.input.focus();
      return;
    }
    submit.disabled = true;
    try {
      const done = await ctx.api("POST", "/api/password",
        { old: old.input.value, new: next.input.value });
      form.reset();
      status(t("sec.changed", { n: done.ended }), "ok");
      onChanged();
    } catch (err) {
      status(err.code === "auth_failed" ? t("sec.old.wrong") : errorText(err), "error");
      (err.code === "bad_password" ? next : old).input.focus();
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

/** The security part of the profile: its own status line, the sessions, the form. */
export function securityPanel(ctx, me) {
  const line = h("p", { class: "sec-status", id: "security-status", role: "status",
    "aria-live": "polite", hidden: true });
  const status = (text, kind) => {
    line.textContent = text || "";
    line.dataset.kind = kind;
    line.hidden = !text;
  };
  const panel = h("section", { class: "sc-security", "aria-labelledby": "sec-h" },
    h("h2", { id: "sec-h" }, t("sec.title")), line);
  let sessions = sessionsBlock(ctx, status);
  const redraw = () => {
    const fresh = sessionsBlock(ctx, status);
    sessions.replaceWith(fresh);
    sessions = fresh;
  };
  panel.append(sessions);
  if (!me.guest) panel.append(passwordForm(ctx, status, redraw));
  else panel.append(h("p", { class: "sc-note" }, t("sec.guest")));
  return panel;
}
