// The 分析 panel of the replay: one seat's decisions judged by the hall's analysis
// (docs/protocol.md "Post-game analysis"), asked for with a button and polled while it
// runs; then the accuracy, the worst move, every decision (mark, win chance, best move,
// loss; each a button to its step), and at a decision's step its best move's "what if".
import { t } from "../i18n.js";
import { errorText, h } from "./common.js";
import { actionEl } from "./words.js";
import { nameText } from "../names.js";

/** Milliseconds between two looks at an analysis under way. */
const POLL_MS = 500;

const pct = (x) => `${Math.round(x * 100)}%`;

/** A refusal of the analysis in the panel's own words where it has them (the queue is
 * full, a private table's game), else as every screen says it. */
function refusal(err) {
  const key = `an.err.${err.code}`;
  const text = t(key);
  return text === key ? errorText(err) : text;
}

function markEl(mark) {
  return mark ? h("span", { class: `sc-badge an-mark an-${mark}` }, t(`an.mark.${mark}`)) : null;
}

/** A move as the table shows it, at the position it was chosen in. */
function moveEl(game, ply, text) {
  return actionEl(game.variant, "play", game.frames[ply], text);
}

/** The panel: {el, current, update(step), stop()}. `el` asks for the analysis and lists
 * the decisions; `current` (placed by the replay beside its table) judges the decision
 * whose move the step shows. `go(step)` moves the replay; `seat` is the seat shown first
 * (the player's own, else 0). */
export function analysisEl(ctx, game, { go, seat }) {
  const base = `/api/games/${encodeURIComponent(game.id)}`;
  let mine = seat;
  let report = null;
  let timer = null;
  let step = 0;
  const pick = h("select", { id: "an-seat", class: "an-seat" },
    game.seats.map((s) => h("option", { value: String(s.seat), selected: s.seat === seat },
      nameText(s.name))));
  const start = h("button", { type: "button", class: "an-start" }, t("an.start"));
  const status = h("p", { class: "an-status", role: "status", "aria-live": "polite" });
  const bar = h("progress", { class: "an-progress", max: "1", value: "0", hidden: true,
    "aria-label": t("an.progress.label") });
  const summary = h("div", { class: "an-summary" });
  const now = h("div", { class: "an-now", "aria-live": "polite" });
  const list = h("ol", { class: "an-list" });
  const el = h("section", { class: "sc-analysis", "aria-labelledby": "an-h" },
    h("h2", { id: "an-h" }, t("an.title")),
    h("p", { class: "sc-hint" }, t("an.hint")),
    h("div", { class: "an-ask" },
      h("label", { for: "an-seat" }, t("an.seat")), pick, start),
    status, bar, summary, list);

  const stopPolling = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  const progress = (answer) => {
    el.dataset.state = answer.status;
    bar.hidden = false;
    bar.max = String(answer.total || 1);
    bar.value = String(answer.done || 0);
    status.textContent = answer.total === null
      ? t("an.queued", { ahead: answer.ahead })
      : t("an.running", { done: answer.done, total: answer.total });
  };
  const failed = (err) => {
    stopPolling();
    el.dataset.state = "error";
    bar.hidden = true;
    start.disabled = false;
    status.textContent = refusal(err);
  };
  const answered = (answer) => {
    if (Number(pick.value) !== answer.seat) return;
    if (answer.status === "done") {
      stopPolling();
      show(answer.analysis);
    } else if (answer.status === "none") {
      el.dataset.state = "none";
      start.disabled = false;
    } else {
      progress(answer);
      start.disabled = true;
      timer = setTimeout(poll, POLL_MS);
    }
  };
  const poll = () => {
    ctx.api("GET", `${base}/analysis?seat=${pick.value}`).then(answered, failed);
  };
  const ask = () => {
    start.disabled = true;
    status.textContent = t("an.asking");
    ctx.api("POST", `${base}/analysis?seat=${pick.value}`).then(answered, failed);
  };
  start.addEventListener("click", ask);
  pick.addEventListener("change", () => {
    stopPolling();
    mine = Number(pick.value);
    report = null;
    summary.replaceChildren();
    list.replaceChildren();
    now.replaceChildren();
    status.textContent = "";
    bar.hidden = true;
    poll();
  });

  function show(found) {
    report = found;
    el.dataset.state = "done";
    bar.hidden = true;
    start.disabled = true;
    status.textContent = "";
    const decisions = found.decisions;
    const marks = ["blunder", "mistake", "inaccuracy"].map((m) =>
      [m, decisions.filter((d) => d.mark === m).length]).filter(([, n]) => n);
    const worst = found.worst === null ? null : h("button", { type: "button", class: "an-worst",
      onclick: () => go(found.worst + 1) }, t("an.worst"));
    summary.replaceChildren(
      h("p", { class: "an-accuracy" }, found.accuracy === null ? t("an.no_decisions")
        : t("an.accuracy", { n: Math.round(found.accuracy), seat: nameText(game.seats[mine].name) })),
      h("p", {}, marks.length ? marks.map(([m, n]) => [markEl(m), " ×", String(n), " "])
        : t("an.clean")),
      worst);
    list.replaceChildren(...decisions.map((d) => h("li", { "data-ply": String(d.ply) },
      h("button", { type: "button", class: "an-row", onclick: () => go(d.ply + 1),
        "aria-label": t("an.row.label", { n: d.ply + 1 }) },
      h("span", { class: "an-step" }, t("an.step", { n: d.ply + 1 })),
      moveEl(game, d.ply, d.played.move),
      h("span", { class: "an-win" }, pct(d.played.win)),
      markEl(d.mark)))));
    update(step);
  }

  function whatIf(d, box) {
    box.replaceChildren(h("p", { role: "status" }, t("an.whatif.running")));
    const q = `ply=${d.ply}&move=${encodeURIComponent(d.best.move)}`;
    ctx.api("POST", `${base}/whatif?${q}`).then((line) => {
      const won = line.winners.includes(mine);
      box.replaceChildren(
        h("p", {}, t(won ? "an.whatif.won" : "an.whatif.lost")),
        h("ol", { class: "an-line" }, line.actions.map((a, i) => h("li", {},
          h("strong", {}, nameText(game.seats[a.seat].name)), " ",
          moveEl(game, d.ply, a.action)))));
    }, (err) => box.replaceChildren(h("p", {}, refusal(err))));
  }

  /** The replay moved to `to`: the decision whose move this step shows, if any. */
  function update(to) {
    step = to;
    if (!report) return;
    for (const li of list.children) li.classList.toggle("current", Number(li.dataset.ply) + 1 === to);
    const d = report.decisions.find((x) => x.ply + 1 === to);
    if (!d) {
      now.replaceChildren();
      return;
    }
    const box = h("div", { class: "an-whatif" });
    const same = d.best.move === d.played.move;
    now.replaceChildren(h("div", { class: "an-decision", "data-ply": String(d.ply) },
      h("p", {}, t("an.played"), " ", moveEl(game, d.ply, d.played.move), " ",
        t("an.win", { win: pct(d.played.win), points: d.played.points.toFixed(1) }), " ",
        markEl(d.mark)),
      same ? h("p", {}, t("an.best_played")) : h("p", {}, t("an.best"), " ",
        moveEl(game, d.ply, d.best.move), " ",
        t("an.win", { win: pct(d.best.win), points: d.best.points.toFixed(1) }), " · ",
        t("an.loss", { loss: pct(d.loss) })),
      d.forced_win_missed ? h("p", { class: "an-forced" }, t("an.forced")) : null,
      h("p", { class: "sc-hint" }, t(d.exact ? "an.exact" : "an.sampled", { n: report.samples })),
      same ? null : h("button", { type: "button", class: "an-whatif-go",
        onclick: () => whatIf(d, box) }, t("an.whatif")),
      box));
  }

  poll();
  return { el, current: now, update, stop: stopPolling };
}
