// #/puzzle: the 残局 page: the daily puzzle and "next" (near the player's puzzle rating);
// #/puzzle/ID is one attempt against the solver's defence (docs/protocol.md, "Puzzles").
// A failed attempt shows the solution. Guests play too. A three-hand puzzle shows both
// other hands, 下家 ("other") and 上家 ("third"), with their roles; the solver plays both.
import { registerScreen } from "../app.js";
import { lang, t } from "../i18n.js";
import { cardEl, cardName, sortCards, splitCards } from "../cards.js";
import { Hand } from "../hand.js";
import { errorText, frame, h, signed, whoami } from "./common.js";

const VARIANT = "ddz3_happy"; // how the cards sort: the classic rules

/** "play 333+5" → "3335"; "pass" → "". */
function plainCards(move) {
  if (!move.startsWith("play ")) return "";
  return move.slice(5).split("=")[0].replace("+", "");
}

function sameCards(a, b) {
  return [...a].sort().join("") === [...b].sort().join("");
}

/** A move as a player reads it: "不要" / "pass", else its cards one by one
 * ("8 9 10 J Q", jokers by name). */
function moveText(move) {
  return move === "pass" ? t("pz.pass") : [...plainCards(move)].map(cardName).join(" ");
}

function title(p) {
  return lang() === "en" ? p.title_en : p.title;
}

function stars(level) {
  return h("span", { class: "pz-level", "aria-label": t("pz.level", { n: level }) },
    "★".repeat(level) + "☆".repeat(5 - level));
}

function cardRow(text, label) {
  const cards = sortCards(splitCards(text.replace("+", "")), VARIANT);
  return h("div", { class: "cards pz-cards", role: "group", "aria-label": label },
    cards.map((c) => cardEl(c, { small: true })));
}

function ratingLine(rating, change) {
  const el = h("p", { class: "pz-rating" }, t("pz.rating", { n: rating.rating }));
  if (typeof change === "number" && change !== 0) {
    el.append(" ", h("span", { class: `pz-change ${change > 0 ? "up" : "down"}` }, signed(change)));
  }
  return el;
}

/** Who moves in turn: two hands (the player, the defence) or three (the player, the
 * hand after him, the hand before him). */
function seatsOf(attempt) {
  return attempt.seats === 3 ? ["player", "other", "third"] : ["player", "defence"];
}

/** The solution (or the refutation): the moves in turn, whose each is; ``first`` is
 * the index in ``seats`` of the hand that moves first. */
function lineList(line, seats, first) {
  return h("ol", { class: "pz-line" }, line.map((m, i) => {
    const by = seats[(first + i) % seats.length];
    return h("li", { "data-by": by }, h("span", { class: "pz-by" }, t(`pz.by.${by}`)), " ",
      h("span", { class: "pz-move" }, moveText(m)));
  }));
}

/** A three-hand puzzle's role of a hand: 地主, or 农民 (队友 when on the player's side). */
function role(attempt, who) {
  if (attempt.landlord === who) return t("pz.role.landlord");
  return attempt.landlord === "player" || who === "player" ? t("pz.role.farmer") : t("pz.role.partner");
}

/** One other hand on the felt: its name (and role), its open cards. */
function otherSide(attempt, who) {
  const three = attempt.seats === 3;
  const name = three ? `${t(`pz.by.${who}`)} · ${role(attempt, who)}` : t("pz.them");
  const cards = three ? attempt[who] : attempt.other;
  return h("div", { class: "pz-side", "data-who": three ? who : "defence" },
    h("span", { class: "pz-who" }, name),
    cards ? cardRow(cards, name) : h("span", {}, "—"));
}

function guestEntry(ctx, f) {
  const b = h("button", { type: "button", class: "primary big", id: "pz-guest" }, t("pz.guest"));
  b.addEventListener("click", async () => {
    b.disabled = true;
    try {
      const { token, player } = await ctx.api("POST", "/api/guest");
      ctx.setSession(token, player);
      ctx.navigate("#/puzzle");
    } catch (err) {
      f.status(errorText(err), "error");
      b.disabled = false;
    }
  });
  f.body.append(h("p", {}, t("pz.intro")), b);
}

async function start(ctx, f, which) {
  f.status(t("sc.loading"));
  try {
    const attempt = await ctx.api("POST", "/api/puzzles/attempts", { puzzle: which });
    ctx.navigate(`#/puzzle/${encodeURIComponent(attempt.id)}`);
  } catch (err) {
    f.status(errorText(err), "error");
  }
}

function startButtons(ctx, f, daily) {
  const go = (which, key, primary) => {
    const b = h("button", { type: "button", class: primary ? "primary" : "", "data-go": which }, t(key));
    b.addEventListener("click", () => start(ctx, f, which));
    return b;
  };
  return [daily ? go("daily", "pz.daily.go", true) : null, go("next", "pz.next", !daily)];
}

function overview(ctx, f) {
  ctx.api("GET", "/api/puzzles").then((o) => {
    f.status("");
    f.body.append(ratingLine(o.rating),
      h("div", { class: "pz-daily" },
        h("h2", {}, t("pz.daily")),
        h("p", { class: "pz-title" }, title(o.daily), " ", stars(o.daily.level)),
        h("p", { class: "hint" }, t("pz.about", { n: o.daily.rating }))),
      h("div", { class: "pz-go" }, startButtons(ctx, f, true)));
    f.section.dataset.loaded = "1";
  }, (err) => f.status(errorText(err), "error"));
}

/** One attempt on the board: the defence's open hand, the play on the table, the
 * player's hand with its buttons; once over, the result and what to do next. */
function board(ctx, f, attempt) {
  const s = f.section;
  s.dataset.status = attempt.status;
  s.dataset.hand = attempt.hand;
  s.dataset.other = attempt.other;
  s.dataset.seats = String(attempt.seats || 2);
  if (attempt.seats === 3) {
    s.dataset.third = attempt.third;
    s.dataset.landlord = attempt.landlord;
  }
  s.dataset.line = attempt.line.join("|");
  s.dataset.puzzle = attempt.puzzle.id;
  s.dataset.loaded = "1";
  const p = attempt.puzzle;
  const head = h("div", { class: "pz-head" },
    h("p", { class: "pz-title" }, p.daily ? `${t("pz.daily")} · ` : "", title(p), " ", stars(p.level)),
    ratingLine(attempt.rating, attempt.status === "playing" ? null : attempt.change));
  const felt = h("div", { class: "pz-felt" });
  const three = attempt.seats === 3;
  if (three) felt.append(otherSide(attempt, "third"), otherSide(attempt, "other"));
  else felt.append(otherSide(attempt, "defence"));
  const you = three ? `${t("pz.you")} · ${role(attempt, "player")}` : t("pz.you");
  const table = h("div", { class: "pz-table", "aria-live": "polite" });
  if (attempt.last) {
    table.append(h("span", { class: "pz-who" }, t(`pz.played.${attempt.last_by}`)),
      cardRow(attempt.last, t(`pz.played.${attempt.last_by}`)));
  } else if (attempt.status === "playing") {
    table.append(h("span", { class: "pz-who" }, t("pz.lead")));
  }
  felt.append(table);
  if (three && attempt.status === "playing" && attempt.line.length >= 3) {
    // what the two other hands just did, in turn: the table shows only the play standing
    const [after, before] = attempt.line.slice(-2);
    felt.append(h("p", { class: "pz-replies" },
      t("pz.replies", { after: moveText(after), before: moveText(before) })));
  }
  const controls = h("div", { class: "pz-controls" });
  const reason = h("p", { class: "pz-reason", role: "status" });
  let hand = null;
  if (attempt.status === "playing") {
    const moves = attempt.moves;
    const playBtn = h("button", { type: "button", class: "primary", id: "pz-play" }, t("pz.play"));
    const passBtn = h("button", { type: "button", id: "pz-pass" }, t("pz.pass"));
    const choices = h("div", { class: "pz-choices" });
    const fitting = (picked) => moves.filter((m) => m !== "pass" && sameCards(plainCards(m), picked));
    hand = new Hand(() => {
      const picked = hand.selected().join("");
      const fits = fitting(picked);
      playBtn.disabled = fits.length === 0;
      choices.replaceChildren(...(fits.length > 1 ? fits.map((m) => {
        const b = h("button", { type: "button", class: "pz-reading" },
          m.slice(5).split("+").map((part) => [...part].map(cardName).join(" ")).join(" + "));
        b.addEventListener("click", () => send(m));
        return b;
      }) : []));
      reason.textContent = picked && !fits.length ? t("pz.nofit") : "";
    });
    hand.set(sortCards(splitCards(attempt.hand), VARIANT));
    const send = async (move) => {
      playBtn.disabled = passBtn.disabled = true;
      try {
        const next = await ctx.api("POST", `/api/puzzles/attempts/${encodeURIComponent(attempt.id)}/moves`,
          { move, ply: attempt.ply });
        draw(ctx, f, next);
      } catch (err) {
        reason.textContent = errorText(err);
        playBtn.disabled = false;
        passBtn.disabled = !moves.includes("pass");
      }
    };
    playBtn.addEventListener("click", () => {
      const fits = fitting(hand.selected().join(""));
      if (fits.length === 1) send(fits[0]);
      else if (fits.length > 1) reason.textContent = t("pz.readings");
    });
    passBtn.addEventListener("click", () => send("pass"));
    passBtn.disabled = !moves.includes("pass");
    controls.append(passBtn, playBtn);
    if (three) felt.append(h("span", { class: "pz-who pz-you" }, you));
    felt.append(hand.el,
      h("div", { class: "pz-bar" }, controls, choices), reason);
  } else {
    felt.append(h("div", { class: "pz-side" }, h("span", { class: "pz-who" }, you),
      attempt.hand ? cardRow(attempt.hand, you) : h("span", {}, "—")));
  }
  f.body.replaceChildren(head, felt);
  if (attempt.status === "playing") {
    const answer = three ? "pz.answer3" : "pz.answer";
    f.status(t(attempt.ply === 0 ? (attempt.last ? answer : "pz.first") : "pz.turn"));
    requestAnimationFrame(() => hand && hand.layout());
    return () => hand && hand.detach();
  }
  const solved = attempt.status === "solved";
  f.status(t(solved ? "pz.solved" : "pz.failed"), solved ? "ok" : "error");
  const result = h("div", { class: `pz-result ${attempt.status}` });
  if (!attempt.rated) result.append(h("p", { class: "hint" }, t("pz.practice")));
  const seats = seatsOf(attempt);
  if (solved) result.append(h("h2", {}, t("pz.yours")), lineList(attempt.line, seats, 0));
  else {
    result.append(h("h2", {}, t("pz.solution")), lineList(attempt.solution, seats, 0));
    if (attempt.refutation) {
      result.append(h("h3", {}, t("pz.refutation")), lineList(attempt.refutation, seats, 1));
    }
  }
  // A mined puzzle's game, once the attempt is over (before, it would give the answer away).
  if (p.game) {
    result.append(h("p", { class: "pz-from" },
      h("a", { href: `#/replay/${encodeURIComponent(p.game)}/0` }, t("pz.from_game"))));
  }
  const again = h("button", { type: "button", id: "pz-again" }, t("pz.again"));
  again.addEventListener("click", () => start(ctx, f, p.id));
  result.append(h("div", { class: "pz-go" }, again, ...startButtons(ctx, f, false)));
  f.body.append(result);
  return null;
}

let undo = null;
function draw(ctx, f, attempt) {
  if (undo) undo();
  undo = board(ctx, f, attempt);
}

registerScreen("puzzle", {
  mount(root, ctx, params) {
    const f = frame(root, "puzzle", t("pz.title"));
    f.status(t("sc.loading"));
    whoami(ctx).then((me) => {
      if (!me) {
        f.status("");
        guestEntry(ctx, f);
        return;
      }
      if (!params[0]) {
        overview(ctx, f);
        return;
      }
      ctx.api("GET", `/api/puzzles/attempts/${encodeURIComponent(params[0])}`)
        .then((a) => draw(ctx, f, a), (err) => {
          f.status(errorText(err), "error");
          f.body.append(h("div", { class: "pz-go" }, startButtons(ctx, f, true)));
        });
    }, (err) => f.status(errorText(err), "error"));
    return () => {
      if (undo) undo();
      undo = null;
    };
  },
});
