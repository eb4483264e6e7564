// The table view (/): read-only, for the tablet and any spectator.

import { Countdown, muteButton } from "./countdown.js";
import { finalPanel } from "./final.js";
import { connect, el, replace } from "./live.js";
import { renderTable } from "./tableview.js";
import { eventText, statusLine, waitingText } from "./words.js";

const felt = document.getElementById("felt");
const countdown = new Countdown(document.getElementById("countdown"));
let last = null;

function render(state) {
  last = state;
  document.getElementById("step").textContent = statusLine(state);
  document.getElementById("no-game").hidden = Boolean(state.game);
  document.getElementById("waiting").textContent = waitingText(state);
  renderTable(felt, state);
  countdown.update(state.stage);
  const events = (state.events || []).slice().reverse();
  replace(document.getElementById("log"), events.map((e) => el("li", { dataset: { type: e.type } }, eventText(e))));
  replace(document.getElementById("final"), state.final ? finalPanel(state) : null);
}

muteButton(document.getElementById("mute"));
window.addEventListener("resize", () => last && renderTable(felt, last));
connect("/api/events", render);
