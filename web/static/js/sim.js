// The virtual table (/sim): a hand for every simulated sensor. Each click becomes a
// simulator command, and the game changes only through the facts the sensors then give.

import { connect, el, notice, post, replace } from "./live.js";
import { renderTable } from "./tableview.js";
import { refusal, statusLine, t } from "./words.js";

const felt = document.getElementById("felt");
const guns = document.getElementById("guns").dataset.guns.split(",").filter(Boolean).map(Number);
let picked = null; // the gun picked on the drawing, waiting for its target
let first = null; // sweep and between: the first of its two seats
let last = null;
let polledLocks = {}; // before a game: the guns' locks, from the calibration matrix
const mode = () => document.querySelector('#sim-mode input[name="mode"]:checked').value;

async function sim(command) {
  const res = await post("/api/sim", { command });
  notice(res.ok ? "" : refusal(res));
}

// On the drawing: click a seat to pick its gun, then the seat it aims at (or, to sweep
// across two or point between two, the first seat and then the second).
function onSeat(seat) {
  if (picked === null || picked === seat) {
    picked = picked === seat ? null : seat;
    first = null;
    const ask = mode() === "aim" ? "sim.pick_target" : "sim.pick_first";
    notice(picked === null ? "" : t(ask, { n: seat }));
    return;
  }
  const gun = picked;
  if (mode() === "aim") {
    picked = null;
    sim(`aim ${gun} ${seat}`);
  } else if (first === null) {
    first = seat;
    notice(t("sim.pick_second", { n: gun }));
  } else if (seat !== first) {
    const speed = Number(document.getElementById("sweep-speed").value) || 60;
    picked = null;
    sim(mode() === "sweep" ? `sweep ${gun} ${first} ${seat} ${speed}` : `between ${gun} ${first} ${seat}`);
    first = null;
  }
}

// The lock LED at the back of the gun, as its holder sees it: off, steady, or blinking.
function lockLed(lock) {
  const words = `${t("sim.lock")}: ${t(`sim.lock_${lock}`)}`;
  return el("span", { class: "row lock" },
    el("span", { class: "lock-led", "data-lock": lock, role: "img", "aria-label": words }),
    el("span", { class: "what" }, words));
}

function gunPanel(gun, state) {
  const p = state.players.find((q) => q.seat === gun);
  const r = (p && p.sensors) || {};
  const seats = state.players.length ? state.players.map((q) => q.seat) : guns;
  const chip = (label, command, pressed = false) => el("button", {
    type: "button", class: "chip", "aria-pressed": pressed ? "true" : "false",
    "data-sim": command, onclick: () => sim(command),
  }, label);
  const lock = p ? (r.lock ?? 0) : (polledLocks[gun] ?? 0);
  return el("div", { class: "gun", dataset: { gun } },
    el("h3", {}, t("sim.gun", { n: gun }), p ? ` · ${p.name}` : ""),
    p?.bot ? el("div", { class: "row" },
      el("span", { class: "what" }, t("bot.style", { style: t(`bot.${p.bot}`) })),
      el("a", { class: "button small", href: `/sim/seat/${gun}`, target: "_blank", rel: "noopener",
        "data-take": gun }, t("sim.take_seat"))) : null,
    lockLed(lock),
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
  renderTable(felt, state, { onSeat, sensors: true });
  replace(document.getElementById("guns"), guns.map((g) => gunPanel(g, state)));
}

// Without a game the stream has no seats: the locks come from the calibration matrix.
async function pollLocks() {
  if (last && !last.game) {
    try {
      const res = await fetch("/api/ir-matrix", { credentials: "same-origin" });
      if (res.ok) {
        polledLocks = (await res.json()).locks;
        replace(document.getElementById("guns"), guns.map((g) => gunPanel(g, last)));
      }
    } catch { /* the stream's banner says the server is away */ }
  }
  setTimeout(pollLocks, 500);
}

window.addEventListener("resize", () => last && renderTable(felt, last, { onSeat, sensors: true }));
connect("/api/events", render);
pollLocks();
