// The own hand: an overlapped fan of card buttons. Select by click or tap, by dragging
// across (mouse or finger: every card passed takes the first card's new state), or by
// keyboard (arrows move along the fan, Space/Enter toggles). Selection survives redraws
// while the hand is unchanged.
import { cardEl } from "./cards.js";
import { t } from "./i18n.js";

export class Hand {
  constructor(onChange) {
    this.onChange = onChange;
    this.cards = [];
    this.picked = new Set();
    this.focus = 0;
    this.el = document.createElement("div");
    this.el.className = "hand";
    this.el.setAttribute("role", "group");
    this.drag = null;
    this.el.addEventListener("pointerdown", (e) => this.down(e));
    this.el.addEventListener("pointermove", (e) => this.move(e));
    for (const ev of ["pointerup", "pointercancel", "lostpointercapture"]) {
      this.el.addEventListener(ev, () => { this.drag = null; });
    }
    this.el.addEventListener("click", (e) => {
      const i = this.indexOf(e.target);
      if (i !== null && e.detail === 0) this.toggle(i, !this.picked.has(i)); // keyboard
    });
    this.el.addEventListener("keydown", (e) => this.key(e));
    this.relayout = () => this.layout();
    window.addEventListener("resize", this.relayout);
  }

  /** Stop following the window's size (the screen is leaving). */
  detach() {
    window.removeEventListener("resize", this.relayout);
  }

  /**
   * Fan the cards over as few rows as the width allows, rows balanced (17 cards on a
   * phone: one row; 33: three rows of 11), each card showing at least its corner.
   */
  layout() {
    const cards = [...this.el.querySelectorAll(".card")];
    this.el.querySelectorAll(".break").forEach((b) => b.remove());
    if (!cards.length || !this.el.isConnected) return;
    const css = getComputedStyle(this.el);
    const cw = parseFloat(css.getPropertyValue("--cw")) || 72;
    const minStep = parseFloat(css.getPropertyValue("--min-step")) || 20;
    const maxStep = parseFloat(css.getPropertyValue("--max-step")) || 44;
    const width = this.el.clientWidth - 16 - 4;
    let perRow = Math.max(1, Math.floor((width - cw) / minStep) + 1);
    const rows = Math.ceil(cards.length / perRow);
    perRow = Math.ceil(cards.length / rows);
    const step = Math.min(maxStep, perRow > 1 ? (width - cw) / (perRow - 1) : maxStep);
    this.el.style.setProperty("--step", `${Math.floor(step)}px`);
    for (let r = 1; r < rows; r++) {
      const brk = document.createElement("span");
      brk.className = "break";
      brk.setAttribute("aria-hidden", "true");
      cards[r * perRow].before(brk);
    }
  }

  indexOf(target) {
    const b = target && target.closest && target.closest(".card");
    return b && this.el.contains(b) ? Number(b.dataset.index) : null;
  }

  down(e) {
    const i = this.indexOf(e.target);
    if (i === null || e.button > 0) return;
    e.preventDefault();
    this.el.setPointerCapture(e.pointerId);
    this.drag = { mode: !this.picked.has(i), seen: new Set([i]) };
    this.focus = i;
    this.toggle(i, this.drag.mode);
    this.el.querySelectorAll(".card")[i].focus({ preventScroll: true });
  }

  move(e) {
    if (!this.drag) return;
    const i = this.indexOf(document.elementFromPoint(e.clientX, e.clientY));
    if (i === null || this.drag.seen.has(i)) return;
    this.drag.seen.add(i);
    this.toggle(i, this.drag.mode);
  }

  key(e) {
    const i = this.indexOf(e.target);
    if (i === null) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 };
    let j = null;
    if (e.key in moves) j = Math.min(this.cards.length - 1, Math.max(0, i + moves[e.key]));
    else if (e.key === "Home") j = 0;
    else if (e.key === "End") j = this.cards.length - 1;
    if (j === null) return;
    e.preventDefault();
    this.focus = j;
    this.roving();
    this.el.querySelectorAll(".card")[j].focus();
  }

  toggle(i, on) {
    if (on) this.picked.add(i);
    else this.picked.delete(i);
    const b = this.el.querySelectorAll(".card")[i];
    if (b) {
      b.classList.toggle("picked", on);
      b.setAttribute("aria-pressed", String(on));
    }
    this.onChange();
  }

  roving() {
    this.el.querySelectorAll(".card").forEach((b, k) => { b.tabIndex = k === this.focus ? 0 : -1; });
  }

  /** Show these cards (already sorted); opts.wild: the wild rank. */
  set(cards, opts = {}) {
    const same = cards.join() === this.cards.join() && this.el.childElementCount === cards.length;
    this.el.setAttribute("aria-label", t("table.hand", { n: cards.length }));
    this.el.style.setProperty("--n", String(cards.length));
    if (same && this.el.dataset.wild === String(opts.wild || "")) return;
    this.cards = cards;
    this.picked.clear();
    this.focus = Math.min(this.focus, Math.max(0, cards.length - 1));
    this.el.dataset.wild = String(opts.wild || "");
    this.el.replaceChildren(...cards.map((c, i) => {
      const b = cardEl(c, { button: true, wild: opts.wild && c[0] === opts.wild });
      b.dataset.index = String(i);
      return b;
    }));
    this.roving();
    requestAnimationFrame(this.relayout);
    this.onChange();
  }

  selected() {
    return [...this.picked].sort((a, b) => a - b).map((i) => this.cards[i]);
  }

  select(indexes) {
    for (const i of [...this.picked]) this.toggle(i, false);
    for (const i of indexes) this.toggle(i, true);
  }
}
