// The big "1, 2, 3" of the hold-up and courage steps, on the server's beat times, with
// Web Audio beeps (a higher one on "three") or the words spoken in the page's language
// ("un, deux, trois": short recordings served by the companion, web/voices.py), unless
// muted. A word that cannot be loaded is a beep. Browsers only let sound play after a tap
// on the page, so the first tap anywhere wakes the audio.

import { localTime } from "./live.js";
import { t } from "./words.js";

const SHOW_LAST_MS = 900;
// "One" is due the moment the countdown starts, so it always reaches a page a little late:
// a beat this late still sounds, at once; one later than that is only shown.
const LATE_BEAT_MS = 250;
let audio = null;
// The device's choices, kept in its storage: sound off, and words rather than beeps.
const settings = { muted: localStorage.getItem("muted") === "yes",
  spoken: localStorage.getItem("count-voice") === "yes" };
const STORED = { muted: "muted", spoken: "count-voice" };
const words = {}; // beat -> its decoded recording, once loaded

function loadWords() {
  const lang = document.documentElement.lang || "en";
  for (const beat of [1, 2, 3]) {
    if (words[beat] !== undefined) continue;
    words[beat] = null; // asked for: a failure leaves the beep
    fetch(new URL(`../audio/${lang}/beat${beat}.wav`, import.meta.url))
      .then((res) => (res.ok ? res.arrayBuffer() : Promise.reject(new Error(res.status))))
      .then((data) => audio.decodeAudioData(data))
      .then((buffer) => { words[beat] = buffer; })
      .catch(() => { /* no recording: this beat beeps */ });
  }
}

function wakeAudio() {
  if (!audio) audio = new AudioContext();
  if (audio.state === "suspended") audio.resume();
  if (settings.spoken) loadWords();
}
document.addEventListener("pointerdown", wakeAudio, { once: true });

function sound(beat) {
  if (settings.muted || !audio || audio.state !== "running") return;
  if (settings.spoken && words[beat]) {
    const word = audio.createBufferSource();
    word.buffer = words[beat];
    word.connect(audio.destination);
    word.start();
    return;
  }
  const high = beat === 3;
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.frequency.value = high ? 1320 : 880;
  gain.gain.setValueAtTime(0.25, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + (high ? 0.5 : 0.18));
  osc.connect(gain).connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + 0.5);
}

// A button that switches one of the settings, labelled with what is on now.
function settingButton(button, name, whenOn, whenOff) {
  const label = () => {
    button.textContent = settings[name] ? t(whenOn) : t(whenOff);
    button.setAttribute("aria-pressed", settings[name] ? "true" : "false");
  };
  button.addEventListener("click", () => {
    settings[name] = !settings[name];
    localStorage.setItem(STORED[name], settings[name] ? "yes" : "no");
    wakeAudio();
    label();
  });
  label();
}

export const muteButton = (button) => settingButton(button, "muted", "ui.sound_off", "ui.sound_on");
export const voiceButton = (button) => settingButton(button, "spoken", "ui.count_voice", "ui.count_beeps");

export class Countdown {
  constructor(box) {
    this.box = box;
    this.key = null;
    this.timers = [];
  }

  // Follow the referee's stage: schedule the beats of a new countdown, clear an ended one.
  update(stage) {
    const key = stage && stage.name === "countdown" ? `${stage.step}:${stage.beats_ms.join(",")}` : null;
    if (key === this.key) return;
    this.key = key;
    this.timers.forEach(clearTimeout);
    this.timers = [];
    if (!key) { this.box.hidden = true; return; }
    const now = Date.now();
    stage.beats_ms.forEach((beatMs, i) => {
      const wait = localTime(beatMs) - now;
      if (wait >= -LATE_BEAT_MS) this.timers.push(setTimeout(() => this.show(i + 1), Math.max(0, wait)));
      else if (i + 1 === stage.beat) this.show(i + 1, false);
    });
    const last = localTime(stage.beats_ms[stage.beats_ms.length - 1]) - now + SHOW_LAST_MS;
    this.timers.push(setTimeout(() => { this.box.hidden = true; }, Math.max(0, last)));
  }

  show(beat, withSound = true) {
    this.box.hidden = false;
    this.box.textContent = t(`count.beat${beat}`);
    this.box.dataset.beat = beat;
    if (withSound) sound(beat);
  }
}
