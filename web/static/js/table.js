// The table view (/): read-only, for the tablet and any spectator. The state is on the
// seats; the banner says whose move it is; the side holds the round, the loot on the
// table and the log, where arrows and the countdown cannot cover them.

import { Countdown, muteButton, voiceButton } from "./countdown.js";
import { finalPanel } from "./final.js";
import { connect, el, replace } from "./live.js";
import { ReplayDialog } from "./replay.js";
import { renderTable } from "./tableview.js";
import { eventText, lootLabel, statusLine, t, waitingText } from "./words.js";

const felt = document.getElementById("felt");
const countdown = new Countdown(document.getElementById("countdown"));
const replays = new ReplayDialog(document.getElementById("replay-open"), document.getElementById("replay"));
let last = null;

// A tablet at the table is a kiosk: its screen stays on while a game runs and may sleep
// once it is over. The browser drops the lock whenever the page is hidden, so it is asked
// again when the page is seen again.
const wake = { wanted: false, lock: null, asking: false };
async function keepScreenOn(wanted) {
  wake.wanted = wanted;
  if (!("wakeLock" in navigator)) return;
  if (!wanted && wake.lock) {
    const lock = wake.lock;
    wake.lock = null;
    await lock.release();
  } else if (wanted && !wake.lock && !wake.asking && document.visibilityState === "visible") {
    wake.asking = true;
    try {
      const lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => { if (wake.lock === lock) wake.lock = null; });
      wake.lock = lock;
    } catch { /* refused (a battery saver): the screen may sleep */ }
    wake.asking = false;
    if (!wake.wanted && wake.lock) keepScreenOn(false); // the game ended meanwhile
  }
}
document.addEventListener("visibilitychange", () => keepScreenOn(wake.wanted));

// The log by round, the newest round on top, each round's events numbered in reading order.
function logRounds(events) {
  const rounds = new Map();
  for (const e of events) {
    if (!rounds.has(e.round)) rounds.set(e.round, []);
    rounds.get(e.round).push(e);
  }
  return [...rounds].reverse().map(([round, list]) => el("section", { class: "log-round", dataset: { round } },
    el("h3", {}, t("log.round", { round })),
    el("ol", {}, list.map((e) => el("li", { dataset: { type: e.type } }, eventText(e))))));
}

function render(state) {
  last = state;
  document.getElementById("step").textContent = statusLine(state);
  document.getElementById("no-game").hidden = Boolean(state.game);
  document.getElementById("banner").textContent = waitingText(state);
  document.getElementById("round").textContent = state.round ? t("ui.round_of", { round: state.round, rounds: state.rounds }) : "";
  const loot = state.table?.loot ?? [];
  replace(document.getElementById("loot"), loot.map((card) => el("span", { class: `loot-card ${card.replace(/[0-9]+/, "")}` }, lootLabel(card))),
    state.table?.godfather_token ? el("span", { class: "loot-card token" }, t("loot_label.godfather")) : null);
  const forbidden = document.getElementById("forbidden");
  forbidden.hidden = !state.split?.forbidden;
  forbidden.textContent = state.split?.forbidden ? t("ui.forbidden", { kind: t(`kind.${state.split.forbidden}`) }) : "";
  renderTable(felt, state);
  countdown.update(state.stage);
  replays.update(state.replays);
  replace(document.getElementById("log"), logRounds(state.events || []));
  replace(document.getElementById("final"), state.final ? finalPanel(state) : null);
  keepScreenOn(Boolean(state.game) && !state.final);
}

muteButton(document.getElementById("mute"));
voiceButton(document.getElementById("voice"));
window.addEventListener("resize", () => last && renderTable(felt, last));
connect("/api/events", render);
