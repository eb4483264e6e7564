// The virtual table (/sim): a hand for every simulated sensor. Each click becomes a
// simulator command, and the game changes only through the facts the sensors then give.

import { connect, el, notice, post, replace } from "./live.js";
import { renderTable } from "./tableview.js";
import { statusLine, t } from "./words.js";

const felt = document.getElementById("felt");
const guns = document.getElementById("guns").dataset.guns.split(",").filter(Boolean).map(Number);
let picked = null; // the gun picked on the drawing, waiting for its target
let last = null;

async function sim(command) {
  const res = await post("/api/sim", { command });
  notice(res.ok ? "" : `${t("ui.refused")} ${res.body.error || res.status}`);
}

// On the drawing: click a seat to pick its gun, then the seat it aims at.
function onSeat(seat) {
  if (picked === null || picked === seat) {
    picked = picked === seat ? null : seat;
    notice(picked === null ? "" : t("sim.pick_target", { n: seat }));
    return;
  }
  const gun = picked;
  picked = null;
  sim(`aim ${gun} ${seat}`);
}

function gunPanel(gun, state) {
  const p = state.players.find((q) => q.seat === gun);
  const r = (p && p.sensors) || {};
  const seats = state.players.length ? state.players.map((q) => q.seat) : guns;
  const chip = (label, command, pressed = false) => el("button", {
    type: "button", class: "chip", "aria-pressed": pressed ? "true" : "false",
    "data-sim": command, onclick: () => sim(command),
  }, label);
  return el("div", { class: "gun", dataset: { gun } },
    el("h3", {}, t("sim.gun", { n: gun }), p ? ` · ${p.name}` : ""),
    el("div", { class: "row" }, el("span", { class: "what" }, t("ref.aim")),
      chip(t("ref.nobody"), `aim ${gun} none`, p && r.aim === null),
      seats.filter((s) => s !== gun).map((s) => chip(String(s), `aim ${gun} ${s}`, r.aim === s))),
    el("div", { class: "row" },
      chip(t("sim.raise"), `raise ${gun}`, r.raised === true), chip(t("sim.lower"), `lower ${gun}`, p && r.raised === false),
      chip(t("sim.tip"), `tip ${gun}`, r.posture === "down"), chip(t("sim.stand"), `stand ${gun}`, p && r.posture === "up"),
      chip(t("sim.unplug"), `unplug ${gun}`), chip(t("sim.replug"), `replug ${gun}`)));
}

function render(state) {
  last = state;
  document.getElementById("step").textContent = statusLine(state);
  renderTable(felt, state, onSeat);
  replace(document.getElementById("guns"), guns.map((g) => gunPanel(g, state)));
}

window.addEventListener("resize", () => last && renderTable(felt, last, onSeat));
connect("/api/events", render);
