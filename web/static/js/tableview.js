// The table drawn from a public snapshot: seats round an oval, clockwise from the bottom
// (the Godfather's desk side), aim arrows between them, the loot in the middle.

import { el, replace } from "./live.js";
import { listWords, lootLabel, plural, powerName, t } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";

const seatOf = (state, name) => state.players.find((p) => p.name === name)?.seat ?? null;

// Where a seat sits, as fractions of the felt's width and height.
function seatPosition(index, count) {
  const angle = Math.PI / 2 + (2 * Math.PI * index) / count;
  return { x: 0.5 + 0.4 * Math.cos(angle), y: 0.5 + 0.36 * Math.sin(angle) };
}

// The standee as the sensors see it, else as the courage step recorded it.
export function standeeDown(p) {
  if (p.sensors && p.sensors.posture) return p.sensors.posture === "down";
  return p.down === true;
}

// The arrow drawn: the gun's live reading first, else the aim the rules counted.
function aimOf(state, p) {
  if (p.sensors && p.sensors.aim !== undefined && p.sensors.aim !== null) return { seat: p.sensors.aim, live: true };
  const counted = p.counted_aim?.target;
  return counted ? { seat: seatOf(state, counted), live: false } : null;
}

// The aim the rules counted this round, apart from the live arrow.
function countedBadge(p) {
  const c = p.counted_aim;
  if (!c) return null;
  const words = c.mark === "ambiguous" ? t("aim.ambiguous", { names: listWords(c.seen) })
    : c.mark === "too_slow" ? t("aim.too_slow") : t("aim.counted", { target: c.target });
  return el("span", { class: `badge counted${c.mark ? ` ${c.mark}` : ""}`, dataset: { target: c.target ?? "" } }, words);
}

function wounds(p) {
  const marks = Array.from({ length: p.wound_limit }, (_, i) => el("span", { class: i < p.wounds ? "wound hit" : "wound" }));
  return el("div", { class: "wounds", title: plural("count.wounds", p.wounds) }, marks,
    el("span", { class: "sr" }, plural("count.wounds", p.wounds)));
}

function seatCard(state, p, onSeat) {
  const down = standeeDown(p);
  const manual = p.sensors?.manual?.length ? el("span", { class: "badge manual" }, t("ui.manual")) : null;
  const attrs = {
    class: "seat", dataset: {
      seat: p.seat, alive: p.alive ? "yes" : "no", posture: down ? "down" : "up",
      turn: state.split?.turn === p.name ? "yes" : "no",
    },
  };
  if (onSeat) { attrs.onclick = () => onSeat(p.seat); attrs.role = "button"; attrs.tabindex = "0"; }
  return el("div", attrs,
    el("div", { class: "seat-head" },
      el("span", { class: "seat-no" }, p.seat),
      el("strong", { class: "name" }, p.name),
      state.godfather === p.name ? el("span", { class: "badge desk" }, t("ui.godfather")) : null),
    el("div", { class: "power" }, powerName(p.power)),
    p.alive
      ? el("div", { class: "standee" }, down ? t("ui.standee_down") : t("ui.standee_up"), manual)
      : el("div", { class: "standee out" }, t("ui.out")),
    wounds(p),
    el("div", { class: "facts" },
      p.chosen ? el("span", { class: "badge" }, t("ui.card_down")) : null,
      countedBadge(p),
      p.sensors && p.sensors.raised ? el("span", { class: "badge raised" }, t("ui.gun_raised")) : null,
      el("span", { class: "loot-count" }, plural("count.loot", p.loot_count ?? 0))));
}

// How far from a card's centre, along the unit vector (ux, uy), its edge lies (plus a gap).
function toEdge(card, ux, uy) {
  const hw = card.offsetWidth / 2 + 6, hh = card.offsetHeight / 2 + 6;
  return Math.min(ux ? hw / Math.abs(ux) : Infinity, uy ? hh / Math.abs(uy) : Infinity);
}

function drawArrows(svg, state, centers, cards) {
  const { width, height } = svg.getBoundingClientRect();
  if (!width || !height) { svg.replaceChildren(); return; } // not on screen (a hidden tab)
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const defs = document.createElementNS(SVG, "defs");
  const marker = document.createElementNS(SVG, "marker");
  for (const [k, v] of Object.entries({ id: "head", viewBox: "0 0 10 10", refX: 9, refY: 5,
    markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" })) marker.setAttribute(k, v);
  const tip = document.createElementNS(SVG, "path");
  tip.setAttribute("d", "M0,0 L10,5 L0,10 z");
  marker.append(tip);
  defs.append(marker);
  const lines = [defs];
  for (const p of state.players) {
    const aim = p.alive ? aimOf(state, p) : null;
    const target = aim?.seat;
    if (!target || !centers[target] || target === p.seat) continue;
    const a = { x: centers[p.seat].x * width, y: centers[p.seat].y * height };
    const b = { x: centers[target].x * width, y: centers[target].y * height };
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    const ux = (b.x - a.x) / len, uy = (b.y - a.y) / len;
    const from = toEdge(cards[p.seat], ux, uy), to = toEdge(cards[target], ux, uy);
    if (from + to >= len) continue; // the cards touch: no room for an arrow
    const line = document.createElementNS(SVG, "line");
    const attrs = {
      x1: a.x + ux * from, y1: a.y + uy * from, x2: b.x - ux * to, y2: b.y - uy * to,
      class: !aim.live ? "aim counted" : p.sensors.raised === false ? "aim lowered" : "aim",
      "marker-end": "url(#head)", "data-from": p.seat, "data-to": target,
    };
    for (const [k, v] of Object.entries(attrs)) line.setAttribute(k, v);
    lines.push(line);
  }
  svg.replaceChildren(...lines);
}

function centerPanel(state) {
  const loot = state.table?.loot ?? [];
  return el("div", { class: "center" },
    el("div", { class: "round" }, state.round ? t("ui.round_of", { round: state.round, rounds: state.rounds }) : ""),
    el("div", { class: "loot", "aria-label": t("ui.loot_on_table") },
      loot.map((card) => el("span", { class: `loot-card ${card.replace(/[0-9]+/, "")}` }, lootLabel(card))),
      state.table?.godfather_token ? el("span", { class: "loot-card token" }, t("loot_label.godfather")) : null),
    state.split?.turn ? el("div", { class: "turn" }, t("ui.share_of", { player: state.split.turn })) : null,
    state.split?.forbidden ? el("div", { class: "turn" }, t("ui.forbidden", { kind: t(`kind.${state.split.forbidden}`) })) : null);
}

// Draw the table into `felt`; `onSeat(seat)` makes seats clickable (the virtual table).
export function renderTable(felt, state, onSeat = null) {
  const count = state.players.length;
  const centers = {};
  const cards = {};
  const seats = state.players.map((p, i) => {
    const pos = seatPosition(i, count);
    centers[p.seat] = pos;
    const card = seatCard(state, p, onSeat);
    cards[p.seat] = card;
    card.style.left = `${pos.x * 100}%`;
    card.style.top = `${pos.y * 100}%`;
    return card;
  });
  let svg = felt.querySelector("svg.arrows");
  if (!svg) {
    svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "arrows");
    svg.setAttribute("aria-hidden", "true");
  }
  replace(felt, svg, centerPanel(state), ...seats);
  drawArrows(svg, state, centers, cards);
}
