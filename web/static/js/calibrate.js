// Calibration (/calibrate): the live visibility matrix, and "point gun N at each player in
// turn". A step passes when the matrix shows that gun seeing exactly that player (in most
// of the last second's looks, and nobody else): held for about a second.

import { el, replace } from "./live.js";
import { showSeating } from "./seating.js";
import { t } from "./words.js";

const POLL_MS = 250;
const stepText = document.getElementById("cal-step");
const seesText = document.getElementById("cal-sees");
const doneText = document.getElementById("cal-done");
const gunPick = document.getElementById("cal-gun");
const matrix = document.getElementById("matrix");

let seats = [];
let steps = []; // [gun, target], gun by gun
let passed = new Set();
let current = -1; // the step asked now; -1 when all passed
let names = {};
let last = null;

const key = (gun, target) => `${gun}-${target}`;
const who = (n) => (names[n] ? t("cal.seat_player", { name: names[n], n }) : t("cal.seat_only", { n }));
const gunDone = (g) => seats.every((x) => x === g || passed.has(key(g, x)));
const setText = (node, text) => { if (node.textContent !== text) node.textContent = text; };

// The first step not passed yet, from `from` on (round the list); -1 when none is left.
function nextOpen(from) {
  for (let k = 0; k < steps.length; k += 1) {
    const i = (from + k) % steps.length;
    if (!passed.has(key(...steps[i]))) return i;
  }
  return -1;
}

function restart() {
  passed = new Set();
  current = nextOpen(0);
}

function useSeats(next) {
  seats = next;
  steps = seats.flatMap((g) => seats.filter((x) => x !== g).map((x) => [g, x]));
  restart();
  replace(gunPick, seats.map((g) => el("option", { value: g }, t("cal.gun", { n: g }))));
  loadSeating();
}

function drawGuide(m) {
  gunPick.disabled = !seats.length;
  if (!seats.length) {
    setText(stepText, t("cal.no_hub"));
    setText(seesText, "");
    return;
  }
  if (current < 0) {
    setText(stepText, t("cal.all_done"));
    delete stepText.dataset.gun;
    delete stepText.dataset.target;
  } else {
    const [gun, target] = steps[current];
    const done = steps.filter(([g, x]) => passed.has(key(g, x))).length;
    setText(stepText, t("cal.step", { k: done + 1, total: steps.length, gun, target: who(target) }));
    Object.assign(stepText.dataset, { gun, target });
    gunPick.value = String(gun);
  }
  const gun = current < 0 ? null : steps[current][0];
  if (gun === null) setText(seesText, "");
  else if (m.sees[gun]) setText(seesText, t("cal.sees_one", { gun, target: m.sees[gun] }));
  else setText(seesText, t("cal.sees_none", { gun }));
}

function lockLed(lock) {
  return el("span", { class: "lock-led", "data-lock": lock, role: "img",
    "aria-label": `${t("sim.lock")}: ${t(`sim.lock_${lock}`)}` });
}

function drawMatrix(m) {
  const [askGun, askTarget] = current < 0 ? [null, null] : steps[current];
  replace(matrix.tHead, el("tr", {},
    el("th", { scope: "col" }, t("cal.corner")),
    seats.map((b) => el("th", { scope: "col" }, names[b] ? `${t("cal.badge", { n: b })} · ${names[b]}` : t("cal.badge", { n: b }))),
    el("th", { scope: "col" }, t("cal.status"))));
  replace(matrix.tBodies[0], seats.map((g, row) => {
    const done = gunDone(g);
    const total = seats.length - 1;
    const count = seats.filter((x) => x !== g && passed.has(key(g, x))).length;
    return el("tr", { dataset: { gun: g, done: done ? "yes" : "no" }, class: done ? "done" : null },
      el("th", { scope: "row" }, t("cal.gun", { n: g }), " ", lockLed(m.locks[g] ?? 0)),
      seats.map((b, col) => {
        const share = Math.round(100 * m.shares[row][col]);
        const classes = [g === b ? "self" : null, passed.has(key(g, b)) ? "passed" : null,
          g === askGun && b === askTarget ? "asked" : null, m.seen[row][col] ? "seen" : null].filter(Boolean);
        return el("td", { dataset: { badge: b, share }, class: classes.join(" ") || null,
          "aria-label": t("cal.cell", { gun: g, badge: b, share }) }, g === b ? "–" : `${share}%`);
      }),
      el("td", { class: "status" }, done ? t("cal.row_done") : t("cal.row_progress", { done: count, total })));
  }));
  const all = seats.length > 0 && current < 0;
  matrix.classList.toggle("all-done", all);
  matrix.dataset.allDone = all ? "yes" : "no";
  setText(doneText, all ? t("cal.all_done") : "");
}

function update(m) {
  last = m;
  names = m.names || {};
  if (m.seats.join(",") !== seats.join(",")) useSeats(m.seats);
  if (current >= 0) {
    const [gun, target] = steps[current];
    if (m.sees[gun] === target) {
      passed.add(key(gun, target));
      current = nextOpen(current + 1);
    }
  }
  drawGuide(m);
  drawMatrix(m);
  document.body.dataset.live = "yes";
}

async function poll() {
  const banner = document.getElementById("connection");
  try {
    const res = await fetch("/api/ir-matrix", { credentials: "same-origin" });
    if (res.status === 401) { location.reload(); return; }
    if (res.ok) {
      banner.hidden = true;
      update(await res.json());
    }
  } catch {
    banner.textContent = t("ui.reconnecting");
    banner.hidden = false;
    document.body.dataset.live = "no";
  }
  setTimeout(poll, POLL_MS);
}

function loadSeating() {
  return showSeating(document.getElementById("seating"), seats);
}

document.getElementById("cal-skip").addEventListener("click", () => {
  if (current >= 0) current = nextOpen(current + 1);
  if (last) update(last);
});
document.getElementById("cal-restart").addEventListener("click", () => {
  restart();
  if (last) update(last);
});
gunPick.addEventListener("change", () => {
  const gun = Number(gunPick.value);
  const i = steps.findIndex(([g, x]) => g === gun && !passed.has(key(g, x)));
  current = i >= 0 ? i : steps.findIndex(([g]) => g === gun);
  if (last) update(last);
});
poll();
