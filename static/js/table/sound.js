// The table's sound: a small set of cues made for this site and synthesised here, in this
// module, with the Web Audio API (no audio files, so no recording and no licence to keep):
//
//   slide      a card slid from a hand (every draw): a short band-passed noise sweep
//   pair       a pair laid on the pile (a draw that pairs): two soft taps on the felt
//   shuffle    a round's deal: a riffle of short noise bursts
//   turn       the state makes it your turn: two soft rising tones
//   oddArrive  the odd card came into your hand (``event.odd``, you drew): a creeping
//              chromatic motif
//   oddLeave   the odd card left your hand (``event.odd``, you gave): a relieved rise
//   roundOver  a round over (and a match's end for a page with no verdict): a soft chime
//   win, lose  the match won (a short fanfare), lost (a gentle descent)
//   reaction   a reaction arriving (unless this browser muted reactions): a small pop
//
// It is one more listener of the table's events ("table-state", "table-message"), like
// pointing.js, so table.js only imports it. Sound is never the only signal: every cue's
// event keeps its words in the live regions (announce.js, reactions.js). It keeps its own
// last version seen, so a reconnect's or a catch-up's state does not play old cues, and a
// replay is silent. The switch (the table's and the menu's, one setting on this device in
// localStorage, wired by site.js) is read before every cue: switched off, no AudioContext
// is made and no node is started. The AudioContext is made only after the page's first
// gesture (the browsers' autoplay rule), and nothing plays while the page is hidden.
// Every source node started carries its cue's name (``node.cue``), for the tests.

import { ending, playingSeats } from "../ending.js";
import { L } from "./page.js";

export const SOUND_KEY = "oldmaid.sound";
const VOLUME = 0.32; // the master gain: modest, under the page's other sounds

/** Whether this device has sound switched on (it is, unless switched off). */
export function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) !== "off";
  } catch {
    return true;
  }
}

let ctx = null;
let master = null;
let noise = null;
let gestured = false;
let lastVersion = null;
let last = null; // the state seen last
let cue = ""; // the cue being built, named on its nodes

/** The running context, made on first use after a gesture; null when sound may not play. */
function audio() {
  if (!gestured || !soundOn() || document.hidden) return null;
  if (!ctx) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    ctx = new Context();
    master = ctx.createGain();
    master.gain.value = VOLUME;
    master.connect(ctx.destination);
    // One second of white noise, the stuff of every card's sound.
    noise = ctx.createBuffer(1, ctx.sampleRate, ctx.sampleRate);
    const data = noise.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  }
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}

/** An envelope: up to ``peak`` in ``attack`` seconds, then a fall to silence by ``end``. */
function envelope(at, peak, attack, end) {
  const g = ctx.createGain();
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(peak, at + attack);
  g.gain.exponentialRampToValueAtTime(0.0001, end);
  g.connect(master);
  return g;
}

/** Filtered noise: ``filter`` type, its frequency gliding from ``f0`` to ``f1``. */
function burst(at, length, { filter = "bandpass", f0 = 2400, f1 = 1200, q = 0.9, peak = 0.5, attack = 0.006 } = {}) {
  const source = ctx.createBufferSource();
  source.buffer = noise;
  source.cue = cue;
  const f = ctx.createBiquadFilter();
  f.type = filter;
  f.Q.value = q;
  f.frequency.setValueAtTime(f0, at);
  f.frequency.exponentialRampToValueAtTime(f1, at + length);
  source.connect(f).connect(envelope(at, peak, attack, at + length));
  source.start(at, Math.random() * 0.5);
  source.stop(at + length + 0.02);
}

/** A soft tone: ``type`` wave at ``freq`` Hz, optionally gliding to ``to``. */
function tone(at, freq, length, { type = "sine", peak = 0.2, attack = 0.012, to = null, vibrato = 0 } = {}) {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.cue = cue;
  osc.frequency.value = freq; // its pitch, readable on the node
  osc.frequency.setValueAtTime(freq, at);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, at + length);
  if (vibrato) {
    const lfo = ctx.createOscillator();
    const depth = ctx.createGain();
    lfo.cue = cue;
    lfo.frequency.value = 6;
    depth.gain.value = vibrato;
    lfo.connect(depth).connect(osc.frequency);
    lfo.start(at);
    lfo.stop(at + length + 0.02);
  }
  osc.connect(envelope(at, peak, attack, at + length));
  osc.start(at);
  osc.stop(at + length + 0.02);
}

const CUES = {
  slide(t) {
    burst(t, 0.16, { f0: 3200, f1: 1100, q: 0.7, peak: 0.45, attack: 0.012 });
  },
  pair(t) {
    for (const [dt, f] of [[0, 150], [0.075, 130]]) {
      burst(t + dt, 0.07, { filter: "lowpass", f0: 1400, f1: 500, q: 0.5, peak: 0.55, attack: 0.003 });
      tone(t + dt, f, 0.1, { peak: 0.22, attack: 0.004 });
    }
  },
  shuffle(t) {
    // A riffle: fourteen card edges, loudest in the middle, then the squared deck.
    for (let i = 0; i < 14; i++) {
      const swell = Math.sin((Math.PI * (i + 1)) / 15);
      burst(t + i * 0.038 + Math.random() * 0.008, 0.03, { f0: 4200, f1: 2600, q: 1.4, peak: 0.12 + 0.3 * swell, attack: 0.002 });
    }
    burst(t + 0.6, 0.12, { filter: "lowpass", f0: 1800, f1: 400, q: 0.6, peak: 0.4, attack: 0.004 });
  },
  turn(t) {
    tone(t, 659.25, 0.22, { peak: 0.16 }); // E5
    tone(t + 0.12, 987.77, 0.34, { peak: 0.13 }); // B5
  },
  oddArrive(t) {
    // E5, E♭5, D5, then a wobbling D♭5: something unwelcome creeping in.
    [659.25, 622.25, 587.33].forEach((f, i) => tone(t + i * 0.11, f, 0.12, { type: "triangle", peak: 0.2 }));
    tone(t + 0.33, 554.37, 0.5, { type: "triangle", peak: 0.2, vibrato: 9 });
  },
  oddLeave(t) {
    // A breath out, then C5, G5 and a held C6: relief.
    burst(t, 0.35, { filter: "lowpass", f0: 1600, f1: 300, q: 0.4, peak: 0.18, attack: 0.08 });
    [523.25, 783.99].forEach((f, i) => tone(t + 0.12 + i * 0.1, f, 0.16, { peak: 0.16 }));
    tone(t + 0.32, 1046.5, 0.45, { peak: 0.13 });
  },
  roundOver(t) {
    tone(t, 783.99, 0.6, { peak: 0.12 }); // G5
    tone(t, 1567.98, 0.4, { peak: 0.03 }); // its octave, for a bell
    tone(t + 0.16, 1046.5, 0.7, { peak: 0.12 }); // C6
  },
  win(t) {
    // G4 C5 E5, then a held G5 over C5: a small fanfare.
    [392, 523.25, 659.25].forEach((f, i) => tone(t + i * 0.11, f, 0.13, { type: "triangle", peak: 0.2 }));
    tone(t + 0.33, 783.99, 0.6, { type: "triangle", peak: 0.22 });
    tone(t + 0.33, 523.25, 0.6, { peak: 0.1 });
  },
  lose(t) {
    // C5 B♭4 A♭4 G4, slower and softer: it is only a game.
    [523.25, 466.16, 415.3].forEach((f, i) => tone(t + i * 0.2, f, 0.22, { peak: 0.14 }));
    tone(t + 0.6, 392, 0.7, { peak: 0.13 });
  },
  reaction(t) {
    tone(t, 880, 0.08, { peak: 0.12, attack: 0.004, to: 1320 });
  },
};

/** Play a cue ``delay`` seconds from now, if sound may play. */
export function play(name, delay = 0) {
  const context = audio();
  if (!context || !CUES[name]) return;
  cue = name;
  CUES[name](context.currentTime + 0.01 + delay);
  cue = "";
}

/** Whether the state asks this page to draw now. */
function yourTurn(s) {
  return Boolean(s && !s.replay && s.acting !== null && s.acting !== undefined && (playingSeats(s) || []).includes(s.acting)
    && s.round && !s.round.over && !(s.match && s.match.over));
}

const moveOf = (s) => (s && s.round ? `${s.match && s.match.number}/${s.round.number}/${s.round.draws}` : "");

/** The cues a new state plays: ``[name, delay]``. */
export function cuesFor(previous, s) {
  const cues = [];
  const event = s.event;
  const mine = playingSeats(s) || [];
  let after = 0; // the draw's cues come first, the rest follows them
  if (event && event.kind === "draw") {
    cues.push(["slide", 0]);
    after = 0.25;
    if (event.paired) {
      cues.push(["pair", 0.16]);
      after = 0.4;
    }
    // One device: everyone there would hear it, so the odd card's move stays unsaid.
    if (event.odd && s.room.mode !== "same_device") {
      if (mine.includes(event.drawer)) cues.push(["oddArrive", after]);
      else if (mine.includes(event.giver)) cues.push(["oddLeave", after]);
      after += 0.75;
    }
  } else if (event && (event.kind === "round_started" || event.kind === "match_started")) {
    cues.push(["shuffle", 0]);
    after = 0.75;
  }
  const end = ending(L, s);
  const wasOver = previous && previous.match && previous.match.over && previous.match.number === s.match.number;
  const roundWasOver = previous && previous.match && previous.round && s.round && previous.round.over
    && previous.round.number === s.round.number && previous.match.number === s.match.number;
  if (end && !wasOver) {
    const name = end.verdict && end.verdict === L.youWon ? "win" : end.verdict && end.verdict === L.youLost ? "lose" : "roundOver";
    cues.push([name, after]);
  } else if (!end && s.round && s.round.over && !roundWasOver) {
    cues.push(["roundOver", after]);
  } else if (yourTurn(s) && (!yourTurn(previous) || previous.acting !== s.acting || moveOf(previous) !== moveOf(s))) {
    cues.push(["turn", after]);
  }
  return cues;
}

function onGesture() {
  gestured = true;
  if (soundOn()) audio();
}
for (const type of ["pointerdown", "keydown", "touchend"]) addEventListener(type, onGesture, { capture: true });

document.addEventListener("sound-setting", (e) => {
  if (e.detail && e.detail.on) {
    gestured = true; // the switch's click is a gesture
    audio();
  } else if (ctx && ctx.state === "running") {
    ctx.suspend();
  }
});

document.addEventListener("visibilitychange", () => {
  if (!ctx) return;
  if (document.hidden) ctx.suspend();
  else if (soundOn() && gestured) ctx.resume();
});

document.addEventListener("table-state", (e) => {
  const s = e.detail;
  const previous = last;
  last = s;
  const fresh = lastVersion !== null && s.version > lastVersion;
  if (lastVersion === null || s.version > lastVersion) lastVersion = s.version;
  if (!fresh || s.replay || !previous || !s.match) return;
  for (const [name, delay] of cuesFor(previous, s)) play(name, delay);
});

document.addEventListener("table-message", (e) => {
  if (e.detail.type !== "reaction") return;
  if (document.getElementById("mute-reactions")?.checked || (last && last.replay)) return;
  play("reaction");
});
