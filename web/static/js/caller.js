// The caller: the table view says aloud what happens in the game, in the page's language.
// Each line is a recording the companion makes with espeak-ng from the game's own event
// (GET /api/call/<game>/<round>/<n>.wav, companion/dashboard/speech.py); the page fetches
// every new event's line at once and plays them one after another, in the game's order,
// with Web Audio. A switch and a volume, remembered on this device; the page's "Sound off"
// silences the caller too. Events already in the log when the page opens are not read.

import { followState } from "./live.js";
import { t } from "./words.js";

const STORED = { on: "caller", volume: "caller-volume" };
const settings = { on: localStorage.getItem(STORED.on) !== "off",
  volume: Number(localStorage.getItem(STORED.volume) ?? 80) };
let audio = null;
let gain = null;
let heard = null; // {game, counts: round -> events already queued}, from the first snapshot
let playing = Promise.resolve(); // the end of the last line queued

function wake() {
  if (!audio) {
    audio = new AudioContext();
    gain = audio.createGain();
    gain.connect(audio.destination);
  }
  gain.gain.value = settings.volume / 100;
  if (audio.state === "suspended") audio.resume();
}
document.addEventListener("pointerdown", wake, { once: true });

const silent = () => !settings.on || localStorage.getItem("muted") === "yes";

function fetchLine(game, round, n) {
  const lang = document.documentElement.lang || "en";
  return fetch(`/api/call/${game}/${round}/${n}.wav?lang=${lang}`)
    .then((res) => (res.status === 200 ? res.arrayBuffer() : null))
    .catch(() => null); // no line (204), no voice (503), or the table is away: nothing said
}

function play(data) {
  if (!data || silent() || !audio || audio.state !== "running") return Promise.resolve();
  return audio.decodeAudioData(data).then((buffer) => new Promise((done) => {
    const line = audio.createBufferSource();
    line.buffer = buffer;
    line.connect(gain);
    line.onended = done;
    line.start();
  })).catch(() => { /* a line that cannot be decoded is skipped */ });
}

// Queue each event the log shows that was not there before: fetched now, played in turn.
function follow(state) {
  const counts = {};
  for (const e of state.events || []) counts[e.round] = (counts[e.round] || 0) + 1;
  const first = heard === null;
  if (first || heard.game !== state.game) heard = { game: state.game, counts: first ? counts : {} };
  if (first || !state.game) return;
  for (const [round, count] of Object.entries(counts)) {
    for (let n = heard.counts[round] || 0; n < count; n++) {
      const line = silent() ? Promise.resolve(null) : fetchLine(state.game, round, n);
      playing = playing.then(() => line).then(play);
    }
    heard.counts[round] = count; // (fewer after an undo: what is done again is said again)
  }
}

function controls(button, volume) {
  const label = () => {
    button.textContent = t(settings.on ? "call.switch_on" : "call.switch_off");
    button.setAttribute("aria-pressed", settings.on ? "true" : "false");
  };
  button.addEventListener("click", () => {
    settings.on = !settings.on;
    localStorage.setItem(STORED.on, settings.on ? "on" : "off");
    wake();
    label();
  });
  volume.value = String(settings.volume);
  volume.addEventListener("input", () => {
    settings.volume = Number(volume.value);
    localStorage.setItem(STORED.volume, volume.value);
    if (gain) gain.gain.value = settings.volume / 100;
  });
  label();
}

controls(document.getElementById("caller"), document.getElementById("caller-volume"));
followState(follow);
