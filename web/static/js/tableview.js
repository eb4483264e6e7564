// The table drawn from a snapshot: seats along the felt's edge, clockwise from the bottom
// (the Godfather's desk side), arrows between them. The server says what each seat shows
// now (`standee`, `marks`) and which arrows mean something (`arrows`): nothing here
// decides what is current. The virtual table (/sim) asks for its guns' live readings
// instead (`sensors: true`): that page shows the sensors, not the game.

import { el, replace } from "./live.js";
import { plural, powerName, say, t } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const KINDS = ["live", "lowered", "counted"];

// Where each seat's centre goes, for the 4 to 8 players a game has, clockwise on screen
// from the middle of the bottom edge (the Godfather's desk side), as fractions of the room
// the cards' centres have. Seats next to each other are a half width or a half height
// apart, so the cards never overlap once the felt is two cards wide and two cards high.
const PLANS = {
  4: [[0.5, 1], [0, 0.5], [0.5, 0], [1, 0.5]],
  5: [[0.5, 1], [0, 0.5], [0.25, 0], [0.75, 0], [1, 0.5]],
  6: [[0.5, 1], [0, 0.75], [0, 0.25], [0.5, 0], [1, 0.25], [1, 0.75]],
  7: [[0.5, 1], [0, 1], [0, 0.5], [0.25, 0], [0.75, 0], [1, 0.5], [1, 1]],
  8: [[0.5, 1], [0, 1], [0, 0.5], [0, 0], [0.5, 0], [1, 0], [1, 0.5], [1, 1]],
};

function wounds(p) {
  const marks = Array.from({ length: p.wound_limit }, (_, i) => el("span", { class: i < p.wounds ? "wound hit" : "wound" }));
  return el("span", { class: "wounds", title: plural("count.wounds", p.wounds) }, marks,
    el("span", { class: "wound-count" }, `${p.wounds}/${p.wound_limit}`));
}

// The loot taken as a card symbol and its number: the words ("Loot: 4") stay for screen
// readers, since at eight seats they would not fit at a size read from the chairs.
function lootCount(n) {
  const [before, after = ""] = t("seat.loot", { n: "\u0000" }).split("\u0000");
  return el("span", { class: "loot-count", title: plural("count.loot", n) },
    el("span", { class: "sr" }, before), el("span", { class: "loot-n" }, String(n)), el("span", { class: "sr" }, after));
}

// Read from the chairs (26 px of cap height on the tablet): the seat and the name, the
// wounds and the loot, standing or lying (and whether the Godfather set it by hand), the
// marks. The power, the desk, a bot and the gun's reading are the small line: the players
// know them or the arrows show them.
function seatCard(state, p, onSeat) {
  const manual = p.sensors?.manual?.length ? el("span", { class: "badge manual" }, t("ui.manual")) : null;
  const attrs = {
    class: "seat", dataset: {
      seat: p.seat, alive: p.alive ? "yes" : "no", posture: p.sensors?.posture === "down" ? "down" : "up",
      standee: p.standee?.kind ?? "out", turn: state.split?.turn === p.name ? "yes" : "no",
    },
  };
  if (onSeat) { attrs.onclick = () => onSeat(p.seat); attrs.role = "button"; attrs.tabindex = "0"; }
  const gun = p.gun === "up" ? t("seat.gun_up") : t("seat.gun_down");
  return el("div", attrs,
    el("div", { class: "seat-head" },
      el("span", { class: "seat-no" }, p.seat),
      el("strong", { class: "name" }, p.name)),
    el("div", { class: "line about" }, el("span", { class: "power" }, powerName(p.power)),
      state.godfather === p.name ? el("span", { class: "badge desk" }, t("ui.godfather")) : null,
      p.bot ? el("span", { class: "badge bot" }, t("bot.style", { style: t(`bot.${p.bot}`) })) : null,
      p.alive ? el("span", { class: "gun-state", dataset: { gun: p.gun } }, gun) : null),
    el("div", { class: "line tally" }, wounds(p), lootCount(p.loot_count ?? 0)),
    p.alive
      ? el("div", { class: "line" }, el("span", { class: "standee", dataset: { kind: p.standee.kind } }, say(p.standee)), manual)
      : el("div", { class: "standee out" }, t("ui.out")),
    p.marks?.length ? el("div", { class: "marks" }, p.marks.map((m) => el("span", { class: "mark", dataset: { kind: m.kind } }, say(m)))) : null);
}

// The virtual table's arrows: every gun's live reading, whatever the step.
function sensorArrows(state) {
  return state.players.filter((p) => p.alive && Number.isInteger(p.sensors?.aim)).map((p) => ({
    from: p.seat, to: p.sensors.aim, kind: p.sensors.raised ? "live" : "lowered" }));
}

// How far from a card's centre, along the unit vector (ux, uy), its edge lies (plus a gap).
function toEdge(card, ux, uy) {
  const hw = card.offsetWidth / 2 + 6, hh = card.offsetHeight / 2 + 6;
  return Math.min(ux ? hw / Math.abs(ux) : Infinity, uy ? hh / Math.abs(uy) : Infinity);
}

function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// Each arrow bends towards the middle of the felt, so an aim at a neighbour is an arc the
// eye can follow, not a stub between two cards; it leaves and reaches the cards' edges.
function drawArrows(svg, arrows, centers, cards, width, height) {
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const defs = svgEl("defs", {});
  for (const kind of KINDS) {
    const marker = svgEl("marker", { id: `head-${kind}`, class: kind, viewBox: "0 0 10 10", refX: 9, refY: 5,
      markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" });
    marker.append(svgEl("path", { d: "M0,0 L10,5 L0,10 z" }));
    defs.append(marker);
  }
  const lines = [defs];
  const middle = { x: width / 2, y: height / 2 };
  for (const arrow of arrows) {
    const a = centers[arrow.from], b = centers[arrow.to];
    if (!a || !b || arrow.from === arrow.to) continue;
    // bent towards the middle, and a little to its right: two players aiming at each other
    // show two arrows
    const across = unit(a, b);
    if (!across) continue;
    const bend = { x: (a.x + b.x) / 2 + 0.55 * (middle.x - (a.x + b.x) / 2) - 24 * across.y,
      y: (a.y + b.y) / 2 + 0.55 * (middle.y - (a.y + b.y) / 2) + 24 * across.x };
    const out = unit(a, bend), back = unit(bend, b);
    if (!out || !back) continue;
    const from = toEdge(cards[arrow.from], out.x, out.y), to = toEdge(cards[arrow.to], back.x, back.y);
    const start = { x: a.x + out.x * from, y: a.y + out.y * from }, end = { x: b.x - back.x * to, y: b.y - back.y * to };
    if (Math.hypot(end.x - start.x, end.y - start.y) < 24) continue; // the cards touch: no room
    lines.push(svgEl("path", {
      d: `M${start.x},${start.y} Q${bend.x},${bend.y} ${end.x},${end.y}`, fill: "none",
      class: `aim ${arrow.kind}`, "marker-end": `url(#head-${arrow.kind})`, "data-from": arrow.from, "data-to": arrow.to,
    }));
  }
  svg.replaceChildren(...lines);
}

function unit(a, b) {
  const len = Math.hypot(b.x - a.x, b.y - a.y);
  return len ? { x: (b.x - a.x) / len, y: (b.y - a.y) / len } : null;
}

// Draw the table into `felt`. `onSeat(seat)` makes seats clickable; `sensors` draws the
// guns' live readings rather than the arrows the server chose (the virtual table).
export function renderTable(felt, state, { onSeat = null, sensors = false } = {}) {
  const cards = {};
  const seats = state.players.map((p) => (cards[p.seat] = seatCard(state, p, onSeat)));
  let svg = felt.querySelector("svg.arrows");
  if (!svg) svg = svgEl("svg", { class: "arrows", "aria-hidden": "true" });
  replace(felt, svg, ...seats);
  const width = felt.clientWidth, height = felt.clientHeight;
  if (!width || !height) { svg.replaceChildren(); return; } // not on screen (a hidden tab)
  // a seat whose words outgrow its third of the felt drops its small line (power, gun)
  for (const card of seats) card.classList.toggle("tight", card.scrollHeight > card.clientHeight + 1);
  const cardW = Math.max(0, ...seats.map((c) => c.offsetWidth));
  const cardH = Math.max(0, ...seats.map((c) => c.offsetHeight));
  const pad = 8;
  const w = Math.max(0, width - cardW - 2 * pad), h = Math.max(0, height - cardH - 2 * pad);
  const centers = {};
  const plan = PLANS[state.players.length] || [];
  state.players.forEach((p, i) => {
    const [fx, fy] = plan[i];
    centers[p.seat] = { x: fx * w + cardW / 2 + pad, y: fy * h + cardH / 2 + pad };
    cards[p.seat].style.left = `${centers[p.seat].x}px`;
    cards[p.seat].style.top = `${centers[p.seat].y}px`;
  });
  drawArrows(svg, sensors ? sensorArrows(state) : state.arrows || [], centers, cards, width, height);
}
