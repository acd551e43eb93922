// Short sounds made by the page itself (WebAudio, no audio file); muted or not is kept in
// localStorage. Browsers let a page sound only after a gesture (the autoplay policy): no
// AudioContext is made before a click, tap or key, and none while muted.

const KEY = "cardhall.sound";
/** @type {AudioContext | null} */
let audio = null;
/** @type {GainNode | null} */
let out = null;
/** @type {AudioBuffer | null} */
let noiseBuffer = null;
/** Whether this page has had a click, a tap or a key: its own record, not the browser's
 * `userActivation` (which a test harness's script may set without any gesture). */
let touched = false;

export function muted() {
  return localStorage.getItem(KEY) === "0";
}

export function setMuted(on) {
  localStorage.setItem(KEY, on ? "0" : "1");
  if (on && audio) audio.suspend().catch(() => null);
}

/** The context, made (or resumed) only after a gesture and only when not muted. */
function context() {
  if (muted() || !touched) return null;
  if (!audio) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    audio = new Ctx();
    out = audio.createGain();
    out.gain.value = 0.3;
    out.connect(audio.destination);
  }
  if (audio.state === "suspended") audio.resume().catch(() => null);
  return audio;
}

// A gesture: from now on sounds may play (a suspended context resumes inside it).
const onGesture = () => {
  touched = true;
  if (audio && !muted() && audio.state === "suspended") audio.resume().catch(() => null);
};
for (const type of ["pointerup", "keydown", "touchend", "click"]) {
  window.addEventListener(type, onGesture, { capture: true, passive: true });
}

/** A tone from f0 to f1 Hz (exponential glide) with a quick attack and a decay. */
function tone(a, at, { f0, f1 = f0, dur, vol = 0.3, type = "sine" }) {
  const osc = a.createOscillator();
  const gain = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(f0, at);
  if (f1 !== f0) osc.frequency.exponentialRampToValueAtTime(f1, at + dur);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(vol, at + 0.008);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  osc.connect(gain).connect(out);
  osc.start(at);
  osc.stop(at + dur + 0.02);
}

/** A burst of filtered noise (a card's slap, a blast). */
function noise(a, at, { dur, vol = 0.4, freq = 1500, kind = "bandpass", q = 1 }) {
  if (!noiseBuffer) {
    noiseBuffer = a.createBuffer(1, a.sampleRate, a.sampleRate);
    const data = noiseBuffer.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  }
  const src = a.createBufferSource();
  src.buffer = noiseBuffer;
  const filter = a.createBiquadFilter();
  filter.type = kind;
  filter.frequency.value = freq;
  filter.Q.value = q;
  const gain = a.createGain();
  gain.gain.setValueAtTime(vol, at);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  src.connect(filter).connect(gain).connect(out);
  src.start(at);
  src.stop(at + dur + 0.02);
}

const notes = (a, at, freqs, step, dur, vol, type = "triangle") =>
  freqs.forEach((f, i) => tone(a, at + i * step, { f0: f, dur: i === freqs.length - 1 ? dur * 2 : dur, vol, type }));

/** Each sound, scheduled at `at` on context `a`. */
const SOUNDS = {
  play: (a, at) => {
    noise(a, at, { dur: 0.07, vol: 0.5, freq: 2200 });
    tone(a, at, { f0: 420, f1: 240, dur: 0.08, vol: 0.2, type: "triangle" });
  },
  pass: (a, at) => {
    tone(a, at, { f0: 520, dur: 0.1, vol: 0.12 });
    tone(a, at + 0.09, { f0: 390, dur: 0.14, vol: 0.12 });
  },
  bomb: (a, at) => {
    noise(a, at, { dur: 0.7, vol: 0.9, freq: 500, kind: "lowpass" });
    tone(a, at, { f0: 150, f1: 38, dur: 0.6, vol: 0.6 });
  },
  rocket: (a, at) => {
    tone(a, at, { f0: 220, f1: 1760, dur: 0.35, vol: 0.12, type: "sawtooth" });
    noise(a, at, { dur: 0.35, vol: 0.2, freq: 3000, kind: "highpass" });
    SOUNDS.bomb(a, at + 0.33);
    notes(a, at + 0.5, [1047, 1319, 1568], 0.07, 0.12, 0.1);
  },
  deal: (a, at) => {
    for (let i = 0; i < 8; i++) noise(a, at + i * 0.045, { dur: 0.03, vol: 0.25, freq: 3500 });
  },
  turn: (a, at) => {
    tone(a, at + 0.12, { f0: 880, dur: 0.12, vol: 0.18 });
    tone(a, at + 0.24, { f0: 1320, dur: 0.2, vol: 0.18 });
  },
  spring: (a, at) => notes(a, at, [784, 988, 1175, 1568, 1976], 0.06, 0.12, 0.14),
  win: (a, at) => notes(a, at, [523, 659, 784, 1047], 0.1, 0.18, 0.18),
  lose: (a, at) => notes(a, at, [392, 330, 262], 0.16, 0.22, 0.14, "sine"),
};

/** Play one of SOUNDS (by its key) now: nothing while muted or before any gesture. */
export function sound(name) {
  const a = context();
  if (!a || a.state === "closed") return;
  SOUNDS[name](a, a.currentTime + 0.01);
}
