// The New game flow on /referee (docs/DASHBOARD.md): the names (the last game's, written
// by the server), seats offered only where the server says a player can sit (what each
// other seat lacks, too), each seated player's gun and standee checked live (GET
// /api/setup, polled while the tab is open), then the game started. The seats, what they
// lack and how many players a game takes all come from the server. A refusal is said in
// the page's words, from the server's `code`, never in the API's English.

import { el, notice, onSubmit, post, replace } from "./live.js";
import { showSeating } from "./seating.js";
import { listWords, t } from "./words.js";

const POLL_MS = 500;
const LACKS = { gun: "ref.seat_no_gun", standee: "ref.seat_no_standee", both: "ref.seat_no_kit" };
// the server's refusal codes (companion/referee/setup.py, table.py) -> the page's words
const REFUSALS = {
  game_in_progress: () => t("ref.err_in_progress"),
  players_count: (b) => t("ref.err_count", b),
  name_twice: (b) => t("ref.err_name_twice", b),
  name_bad: (b) => t("ref.err_name_bad", b),
  seat_twice: (b) => t("ref.err_seat_twice", { n: b.seat }),
  seating_refuse: () => t("ref.seating_refused"),
  seating_warn: () => t("cal.seating_warn"), // the check answered after the start was sent
};

const form = document.getElementById("setup");
const tab = document.getElementById("tab-setup");
let table = null; // the last answer of /api/setup
let drawn = "";

const SEATS = [...form.querySelectorAll("tr[data-seat]")].map((row) => Number(row.dataset.seat));
const nameAt = (seat) => form.elements[`name${seat}`].value.trim();
const lacks = (s) => s.missing; // "gun", "standee", "both", or "" where a player can sit

// -- seats: rows only where a player can sit; what is missing, said
function drawSeats() {
  const ready = table.seats.filter((s) => !lacks(s));
  const lines = [table.known ? el("li", {}, t("ref.equip_ready", { seats: listWords(ready.map((s) => s.seat)) }))
    : el("li", {}, t("ref.equip_unknown"))];
  for (const s of table.seats) {
    const lack = lacks(s);
    const name = nameAt(s.seat);
    const row = form.querySelector(`tr[data-seat="${s.seat}"]`);
    row.hidden = Boolean(lack) && !name;
    row.dataset.missing = lack;
    form.elements[`name${s.seat}`].setAttribute("aria-invalid", lack && name ? "true" : "false");
    if (lack && name) lines.push(el("li", { class: "warn" }, `${t(LACKS[lack], { n: s.seat })} ${t("ref.cannot_sit", { name })}`));
    else if (lack && lack !== "both") lines.push(el("li", { class: "warn" }, t(LACKS[lack], { n: s.seat })));
  }
  const bare = table.seats.filter((s) => lacks(s) === "both").map((s) => s.seat);
  if (table.known && ready.every((s) => nameAt(s.seat)) && bare.length) {
    lines.push(el("li", { class: "warn" }, t("ref.equip_full", { n: ready.length, seats: listWords(bare) })));
  }
  replace(document.getElementById("equipment"), lines);
}

// -- the live check: a row per seated player, green once gun and standee were seen
function drawChecks() {
  const part = (ok, todo, done) => el("span", { class: ok ? "part ok" : "part" }, ok ? `✓ ${t(done)}` : t(todo));
  replace(document.getElementById("setup-check"), table.seats.filter((s) => nameAt(s.seat) && !lacks(s)).map((s) => {
    const ready = s.gun_ok && s.standee_ok;
    return el("li", { class: ready ? "ok" : null, dataset: { seat: s.seat, ready: ready ? "yes" : "no" } },
      el("strong", {}, `${s.seat} · ${nameAt(s.seat)}`),
      part(s.gun_ok, s.aims ? "ref.check_aim" : "ref.check_raise", "ref.gun"),
      part(s.standee_ok, "ref.check_tip", "ref.standee"),
      ready ? el("span", { class: "part ok" }, t("ref.check_ready")) : null);
  }));
}

function draw() {
  if (!table) return;
  const key = JSON.stringify([table, SEATS.map(nameAt)]);
  if (key === drawn) return;
  drawn = key;
  drawSeats();
  drawChecks();
}

async function poll() {
  if (!tab.hidden) {
    try {
      const res = await fetch("/api/setup", { credentials: "same-origin" });
      if (res.ok) { table = await res.json(); draw(); checkSeating(); }
    } catch { /* the stream's banner says the table is unreachable */ }
  }
  setTimeout(poll, POLL_MS);
}

// -- start: checked here first, in words; the server's refusal mapped to words too
function seated() {
  const data = new FormData(form);
  return SEATS.filter((seat) => nameAt(seat))
    .map((seat) => ({ seat, name: nameAt(seat), power: data.get(`power${seat}`) }));
}

// What only this page knows: the seats' guns and standees, the desk, the seating check's
// verdict (the rest, the server checks and says by its codes).
function problem(players, data) {
  const bare = table && players.map((p) => table.seats.find((s) => s.seat === p.seat)).find((s) => lacks(s));
  if (bare) return t(LACKS[lacks(bare)], { n: bare.seat });
  if (!players.some((p) => p.seat === Number(data.get("desk")))) return t("ref.desk_empty");
  if (seating && seating.verdict === "refuse") return t("ref.seating_refused");
  return null;
}

// Can every gun tell the seated players apart? Asked once the game's player count is met;
// the server's verdict "refuse" (the table's own grip fails these seats) stops the start.
let checkedSeats = "";
let seating = null; // the seating check's last report, for `checkedSeats`
async function checkSeating() {
  if (!table) return;
  const seats = seated().map((p) => p.seat);
  const { min, max } = table.players;
  if (seats.join() === checkedSeats) return;
  checkedSeats = seats.join();
  seating = null;
  const report = await showSeating(document.getElementById("setup-seating"),
    seats.length >= min && seats.length <= max ? seats : []);
  if (checkedSeats === seats.join()) seating = report;
}

export const refusalWords = (res) => (res.status === 409 ? t("ui.stale")
  : (REFUSALS[res.body.code] || (() => t("ref.err_other")))(res.body));

// `version()`: the state the command is made against; `showTab(name)`: where to go once
// the game started.
export function setupFlow({ version, showTab }) {
  form.addEventListener("input", () => {
    draw();
    checkSeating();
  });
  onSubmit(form, async () => {
    const data = new FormData(form);
    const seats = seated();
    const wrong = problem(seats, data);
    if (wrong) { notice(wrong); return; }
    const desk = seats.findIndex((p) => p.seat === Number(data.get("desk")));
    const players = [...seats.slice(desk), ...seats.slice(0, desk)];
    let powers = data.get("powers");
    if (powers === "chosen") powers = Object.fromEntries(players.filter((p) => p.power).map((p) => [p.name, p.power]));
    const body = {
      type: "new_game", version: version(), players: players.map(({ name, seat }) => ({ name, seat })), powers,
      cards: data.get("cards"), loot: data.get("loot"), variant: { unclaimed_loot: data.get("unclaimed") },
      abandon: data.get("abandon") === "on",
      // starting with the seating check's warning shown is the Godfather's confirmation
      confirm_seating: seating !== null && seating.verdict === "warn",
    };
    if (data.get("seed")) body.seed = Number(data.get("seed"));
    const res = await post("/api/command", body);
    if (!res.ok) { notice(refusalWords(res)); return; }
    notice("");
    showTab(body.cards === "digital" ? "phones" : "play"); // the phones hold the hands
  });
  form.dispatchEvent(new Event("input"));
  poll();
}
