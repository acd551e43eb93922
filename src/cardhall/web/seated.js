// The way back to a table the player sits at, on every screen but the table itself and
// the lobby (which draws its own): the rules, the leaderboard or 我的 in the middle of a
// game must never be a dead end (issue 26).
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { variantName, variantNames } from "./lobby.js";

/** The tables the player is seated at with a game dealt: [id, state]. */
function seatedAt(store) {
  return [...store.tables].filter(([, st]) => st.seat >= 0 && st.phase !== "waiting");
}

/**
 * Keep `el` showing the way back while the route is not a table or the lobby; call the
 * returned function whenever the route or the tables change.
 */
export function watchSeated(el, ctx, currentRoute) {
  return () => {
    const { name } = currentRoute();
    const tables = ["table", "lobby", "join"].includes(name) ? [] : seatedAt(ctx.store);
    el.hidden = tables.length === 0;
    if (!tables.length) { el.replaceChildren(); return; }
    variantNames(ctx.api).then((names) => {
      el.replaceChildren(...tables.map(([id, st]) => h("div", { class: "seated-box", role: "status" },
        h("span", {}, t("seated.text", { v: variantName(names, st.view ? st.view.variant : "") })),
        h("button", { type: "button", class: "primary",
          onclick: () => ctx.navigate(`#/table/${id}`) }, t("seated.back")))));
    }).catch(() => null);
  };
}
