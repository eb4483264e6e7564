// The end of the game: the count per player (with the diamond cards that decide the
// bonus), the winners and the tie-break that chose them (as the server explains them),
// each player's wealth round by round, and who shot whom.

import { el } from "./live.js";
import { money, say, t } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const COLUMNS = ["bills", "diamonds", "paintings", "diamond_bonus", "total"];
const TICK_PX = 14; // the chart's labels (see .chart .tick)
let ruler = null;

// How wide a label is drawn in the page's font: the chart's margin is made to hold it.
function textWidth(text) {
  ruler = ruler || document.createElement("canvas").getContext("2d");
  ruler.font = `${TICK_PX}px ${getComputedStyle(document.body).fontFamily}`;
  return ruler.measureText(text).width;
}

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

function scoreTable(state) {
  const head = el("tr", {}, el("th", {}, t("final.player")), el("th", {}, t("final.diamond_cards")),
    COLUMNS.map((c) => el("th", {}, t(`final.${c}`))));
  const rows = state.final.map((r) => el("tr", { class: state.winners.includes(r.name) ? "winner" : r.alive ? "" : "dead" },
    el("th", {}, r.name, r.alive ? "" : ` (${t("ui.out")})`),
    el("td", { class: r.bonus ? "diamond-cards bonus" : "diamond-cards" }, r.diamond_cards),
    COLUMNS.map((c) => el("td", {}, money(r.score[c])))));
  return el("table", { class: "scores" }, el("thead", {}, head), el("tbody", {}, rows));
}

// history.wealth: one {player: total} per round.
function wealthChart(history, names) {
  const rounds = Math.max(1, history.wealth.length);
  const top = Math.max(1, ...history.wealth.flatMap((r) => Object.values(r)));
  const W = 560, H = 240, B = 30, R = 14, T = 14;
  const L = Math.ceil(Math.max(textWidth(money(top)), textWidth(money(0)))) + 12; // the labels fit
  const x = (i) => L + ((W - L - R) * i) / Math.max(1, rounds - 1);
  const y = (v) => H - B - ((H - B - T) * v) / top;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": t("final.wealth") });
  chart.append(svg("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, class: "axis" }));
  chart.append(svg("text", { x: L - 6, y: y(top) + 5, class: "tick end" }, money(top)));
  chart.append(svg("text", { x: L - 6, y: H - B, class: "tick end" }, money(0)));
  for (let i = 0; i < rounds; i++) chart.append(svg("text", { x: x(i), y: H - 8, class: "tick" }, i + 1));
  names.forEach((name, k) => {
    const points = history.wealth.map((r, i) => `${x(i)},${y(r[name] ?? 0)}`).join(" ");
    chart.append(svg("polyline", { points, class: `line c${k % 8}` }));
  });
  const legend = el("ul", { class: "legend" }, names.map((n, k) => el("li", { class: `c${k % 8}` }, n)));
  return el("figure", {}, chart, legend, el("figcaption", {}, t("final.wealth")));
}

function shotsTable(history, names) {
  const count = (from, to) => history.shots.filter((s) => s.by === from && s.player === to).length;
  const head = el("tr", {}, el("th", {}, t("final.shooter")), names.map((n) => el("th", {}, n)));
  const rows = names.map((from) => el("tr", {}, el("th", {}, from),
    names.map((to) => el("td", {}, from === to ? "–" : count(from, to) || ""))));
  return el("figure", {}, el("table", { class: "shots" }, el("thead", {}, head), el("tbody", {}, rows)),
    el("figcaption", {}, t("final.shots")));
}

// The winners and why (the last one standing, the richest, a tie settled by wounds or
// shared): texts the server made (`result`).
export function finalPanel(state) {
  const names = state.players.map((p) => p.name);
  return el("section", { class: "final", tabindex: "0", "aria-label": t("final.title") },
    el("h2", {}, t("final.title")),
    el("p", { class: "winners" }, say(state.result.winners)),
    el("p", { class: "tiebreak" }, say(state.result.tiebreak)),
    scoreTable(state),
    el("p", { class: "hint" }, t("final.bonus_rule")),
    state.history ? el("div", { class: "charts" }, wealthChart(state.history, names), shotsTable(state.history, names)) : null);
}
