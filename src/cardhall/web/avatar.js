// Avatars drawn here: a small SVG face picked by a hash of the player's id, the same on
// every page, nothing fetched. People get a round face, bots a robot head on a square
// tile, told apart at a glance. Presentation attributes only: the CSP refuses `style=`.

const NS = "http://www.w3.org/2000/svg";
const SKIN = ["#f6d5b8", "#eec39a", "#e0ac7e", "#c68b59", "#9c6644"];
const HAIR = ["#2b1d14", "#4a3020", "#7a4b24", "#c28e3a", "#1c1c1c", "#8e8e8e", "#a0362a"];

/** FNV-1a, 32 bits: the seed of a face (stable across pages and browsers). */
export function hashOf(text) {
  let x = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    x ^= text.charCodeAt(i);
    x = Math.imul(x, 0x01000193);
  }
  return x >>> 0;
}

/** A little generator of picks from a seed (mulberry32). */
function picker(seed) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
  return { int: (n) => Math.floor(next() * n), of: (list) => list[Math.floor(next() * list.length)] };
}

function el(tag, attrs) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

const HAIRDOS = [
  "M10.5 17Q10 8 20 8Q30 8 29.5 17Q26 12 20 12Q14 12 10.5 17Z",
  "M10.5 18Q9 7 21 7.5Q31 8.5 29.5 18Q27 11 22 11.5Q16 12.5 10.5 18Z",
  "M10.5 16L11 10L14 12L16 7L19 11L21 6.5L23.5 11L26 8L27 12L29.5 10L29.5 16Q25 12.5 20 12.5Q15 12.5 10.5 16Z",
];
const LONG_HAIR = "M10 28Q8 8 20 8Q32 8 30 28L26.5 28Q28 15 20 14Q12 15 13.5 28Z";
const GLASSES = "M13.3 18.5a3 3 0 1 0 6 0a3 3 0 1 0 -6 0M20.7 18.5a3 3 0 1 0 6 0a3 3 0 1 0 -6 0M19.3 18.3H20.7";
const INK = "#2b2b2b";
const line = (d, width = 1.1) => el("path", { d, fill: "none", stroke: INK, "stroke-width": width,
  "stroke-linecap": "round" });
/** An eye at x: a dot, a smiling arc, a wide eye, a sleepy line. */
const EYES = [
  (x) => [el("circle", { cx: x, cy: 18.5, r: 1.2, fill: INK })],
  (x) => [line(`M${x - 1.6} 19Q${x} 17 ${x + 1.6} 19`)],
  (x) => [el("circle", { cx: x, cy: 18.5, r: 1.9, fill: "#fff" }), el("circle", { cx: x, cy: 18.8, r: 1, fill: INK })],
  (x) => [line(`M${x - 1.5} 18.8H${x + 1.5}`)],
];
const MOUTHS = [
  () => line("M16.5 22.5Q20 25.5 23.5 22.5"),
  () => el("path", { d: "M16.8 22.2Q20 27 23.2 22.2Z", fill: "#8b2a2a" }),
  () => el("circle", { cx: 20, cy: 23.2, r: 1.2, fill: "#8b2a2a" }),
  () => line("M17.5 23.3Q20 24.3 22.5 23.3"),
];

/** A person: a coloured disc, shoulders, a face with hair (or a cap), eyes, a mouth. */
function face(p) {
  const parts = [el("circle", { cx: 20, cy: 20, r: 20, fill: `hsl(${p.int(360)} 55% 74%)` })];
  const hair = p.of(HAIR);
  const style = p.int(6); // 0–2 a hairdo, 3 long hair, 4 a bun, 5 a cap
  parts.push(el("path", { d: "M6 40Q6 29 20 29Q34 29 34 40Z", fill: `hsl(${p.int(360)} 45% 42%)` }));
  if (style === 3) parts.push(el("path", { d: LONG_HAIR, fill: hair }));
  parts.push(el("circle", { cx: 20, cy: 18.5, r: 9.5, fill: p.of(SKIN) }));
  if (style < 5) parts.push(el("path", { d: HAIRDOS[style < 3 ? style : 0], fill: hair }));
  if (style === 4) parts.push(el("circle", { cx: 20, cy: 6.5, r: 3.5, fill: hair }));
  if (style === 5) {
    const cap = `hsl(${p.int(360)} 60% 45%)`;
    parts.push(el("path", { d: "M10.5 15Q10.5 7 20 7Q29.5 7 29.5 15Z", fill: cap }),
      el("rect", { x: 18, y: 13.5, width: 14, height: 2.5, rx: 1.2, fill: cap }));
  }
  const eye = p.of(EYES);
  parts.push(...eye(16.3), ...eye(23.7));
  if (p.int(2)) {
    for (const x of [14.5, 25.5]) parts.push(el("circle", { cx: x, cy: 21.5, r: 1.5, fill: "#f08080", opacity: 0.45 }));
  }
  if (p.int(5) === 0) parts.push(el("path", { d: GLASSES, fill: "none", stroke: "#333", "stroke-width": 0.8 }));
  parts.push(p.of(MOUTHS)());
  return parts;
}

/** A bot's eyes in their glow: two lamps, a visor, two squares, one big eye. */
const BOT_EYES = [
  (glow) => [15.5, 24.5].map((x) => el("circle", { cx: x, cy: 17, r: 2.6, fill: glow })),
  (glow) => [el("rect", { x: 12, y: 14.5, width: 16, height: 5, rx: 2.5, fill: glow })],
  (glow) => [13, 22].map((x) => el("rect", { x, y: 14.5, width: 5, height: 5, rx: 1, fill: glow })),
  (glow) => [el("circle", { cx: 20, cy: 17, r: 4, fill: "#1b1b1b" }),
    el("circle", { cx: 20, cy: 17, r: 2.2, fill: glow })],
];

/** A bot: a dark square tile, a metal head with an antenna, glowing eyes, a grille. */
function robot(p) {
  const hue = p.int(360);
  const glow = `hsl(${(hue + 150) % 360} 95% 62%)`;
  const metal = `hsl(${hue} 18% 80%)`;
  const edge = `hsl(${hue} 20% 45%)`;
  const parts = [el("rect", { x: 0, y: 0, width: 40, height: 40, rx: 8, fill: `hsl(${hue} 30% 26%)` }),
    el("rect", { x: 12, y: 30, width: 16, height: 12, rx: 3, fill: edge }),
    el("path", { d: "M20 9V4.5", stroke: edge, "stroke-width": 1.6 }),
    el("circle", { cx: 20, cy: 4, r: 2.2, fill: glow }),
    el("rect", { x: 6.5, y: 15, width: 3, height: 7, rx: 1, fill: edge }),
    el("rect", { x: 30.5, y: 15, width: 3, height: 7, rx: 1, fill: edge }),
    el("rect", { x: 9, y: 9, width: 22, height: 20, rx: 4, fill: metal, stroke: edge, "stroke-width": 1 })];
  parts.push(...p.of(BOT_EYES)(glow));
  const teeth = 3 + p.int(3);
  parts.push(el("rect", { x: 14, y: 22.5, width: 12, height: 3.8, rx: 1, fill: "#2b2b2b" }));
  for (let i = 1; i < teeth; i++) {
    const x = 14 + (12 * i) / teeth;
    parts.push(el("path", { d: `M${x.toFixed(2)} 22.5V26.3`, stroke: metal, "stroke-width": 0.7 }));
  }
  return parts;
}

/** Which face a seat's player gets: "bot", "human" or "empty" (nobody sits there). */
export function avatarKind(player) {
  if (!player || (!player.id && !player.bot)) return "empty";
  return player.bot ? "bot" : "human";
}

/**
 * The avatar of a player ({id, name, bot} as a seat lists him): an <svg class="avatar">
 * with data-kind and data-avatar (kind and seed: equal for the same player anywhere).
 * Decorative: the name beside it says who it is.
 */
export function avatarEl(player) {
  const kind = avatarKind(player);
  const key = kind === "empty" ? "" : kind === "bot" ? `bot:${player.name}` : `p:${player.id || player.name}`;
  const seed = hashOf(key);
  const svg = el("svg", { viewBox: "0 0 40 40", class: `avatar ${kind}`, "aria-hidden": "true",
    focusable: "false", "data-kind": kind, "data-avatar": `${kind}-${seed.toString(36)}` });
  if (kind === "empty") {
    svg.append(el("circle", { cx: 20, cy: 20, r: 19, fill: "none", stroke: "#fff", "stroke-width": 1.5,
      "stroke-dasharray": "3 3", opacity: 0.6 }));
    return svg;
  }
  svg.append(...(kind === "bot" ? robot(picker(seed)) : face(picker(seed))));
  return svg;
}
