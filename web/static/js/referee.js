// The Godfather's controls (/referee): every button is one the server offers now (the
// `commands` of the control stream: referee commands, then the rules' legal actions).

import { Countdown, muteButton, voiceButton } from "./countdown.js";
import { connect, el, notice, patch, post, replace } from "./live.js";
import { finalPanel } from "./final.js";
import { ReplayDialog } from "./replay.js";
import { setupFlow } from "./setup_flow.js";
import { renderTable } from "./tableview.js";
import { buttonLabel, lootLabel, refusal, statusLine, t, waitingText } from "./words.js";

let state = null;
const felt = document.getElementById("felt");
const countdown = new Countdown(document.getElementById("countdown"));
const shown = {}; // section -> the data it was last drawn from, to redraw only on change
// "Show me the count": the Godfather may recount a player's part from the replay.
const replays = new ReplayDialog(document.getElementById("replay-open"), document.getElementById("replay"),
  (recount) => command(recount));

// -- tabs (the server opens New game when no game is in progress)
function showTab(name) {
  for (const tab of document.querySelectorAll("[data-tab]")) {
    tab.setAttribute("aria-selected", tab.dataset.tab === name ? "true" : "false");
    document.getElementById(`tab-${tab.dataset.tab}`).hidden = tab.dataset.tab !== name;
  }
  if (state && name === "play") renderTable(felt, state); // arrows need a size
}
for (const tab of document.querySelectorAll("[data-tab]")) {
  tab.addEventListener("click", () => showTab(tab.dataset.tab));
}

async function command(body) {
  const res = await post("/api/command", { version: state ? state.version : 0, ...body });
  if (res.ok) notice("");
  else notice(refusal(res));
  return res.ok;
}

const button = (label, onclick, attrs = {}) =>
  el("button", { type: "button", class: "big", onclick, ...attrs }, label);

// -- the play tab: the referee's commands, then the actions by player, as the server made them.
// A redraw keeps what did not change, for a tap made as the page redraws (the step moving
// on, another player's buttons going): a button still offered is the node drawn before,
// and within a step a player whose buttons went keeps their place, so no other button
// moves under a finger. Made anew or moved between the finger's down and up, a tap would
// be lost or land on the next player's button.
const drawButton = (b) => {
  const a = b.command.action;
  const attrs = a ? { "data-action": JSON.stringify(a), class: `big act-${a.type}` }
    : { "data-command": b.command.type, class: b.primary ? "big primary" : "big" };
  if (b.override) { // a sensored seat's aim or posture: the Godfather's override, said so
    attrs["data-override"] = "yes";
    attrs.title = t("ref.override_tap");
  }
  return button(buttonLabel(b), () => command(b.command), attrs);
};

function drawButtons(row, commands) {
  const drawn = new Map([...row.children].map((node) => [node.dataset.key, node]));
  patch(row, commands.map((b) => {
    const key = JSON.stringify(b);
    const node = drawn.get(key) || drawButton(b);
    node.dataset.key = key;
    return node;
  }));
}

function drawFlow(commands) {
  drawButtons(document.getElementById("flow"), commands.filter((b) => !b.command.action));
}

let actionsStep = null; // the step the groups were drawn in (the game and its status line)

function drawActions(s, step) {
  const box = document.getElementById("actions");
  const groups = new Map([...box.children].map((node) => [node.dataset.player, node]));
  const byPlayer = new Map();
  if (step === actionsStep) for (const player of groups.keys()) byPlayer.set(player, []);
  actionsStep = step;
  for (const b of s.commands.filter((c) => c.command.action)) {
    const player = b.command.action.player;
    if (!byPlayer.has(player)) byPlayer.set(player, []);
    byPlayer.get(player).push(b);
  }
  const seats = new Map(s.players.map((p) => [p.name, p.seat]));
  const order = [...byPlayer.keys()].sort((x, y) => (seats.get(x) ?? Infinity) - (seats.get(y) ?? Infinity));
  patch(box, order.map((player) => {
    const group = groups.get(player) || el("div", { class: "action-group", dataset: { player } },
      el("h3", {}, player), el("div", { class: "row" }));
    const row = group.lastElementChild;
    const buttons = byPlayer.get(player);
    // a player done for now keeps the height their buttons took
    if (buttons.length) row.style.minHeight = "";
    else if (row.children.length) row.style.minHeight = `${row.getBoundingClientRect().height}px`;
    drawButtons(row, buttons);
    return group;
  }));
}

// -- physical loot: the Godfather enters the cards turned up, kind by kind (the server
// says which cards and how many: `deal`)
let dealt = {};

function drawDeal(form) {
  const total = Object.values(dealt).reduce((a, b) => a + b, 0);
  const box = document.getElementById("deal");
  const step = (card, by) => () => { dealt[card] = Math.max(0, dealt[card] + by); drawDeal(form); };
  replace(box, el("h3", {}, t("ref.deal_title", { n: total, max: form.max })),
    el("div", { class: "deal-grid" }, form.cards.map((card) => el("div", { class: "deal-row", dataset: { card } },
      el("button", { type: "button", class: "chip", onclick: step(card, -1), disabled: dealt[card] === 0, "aria-label": t("ref.less", { loot: lootLabel(card) }) }, "−"),
      el("span", { class: `loot-card ${card.replace(/[0-9]+/, "")}` }, `${dealt[card]} × ${lootLabel(card)}`),
      el("button", { type: "button", class: "chip", onclick: step(card, 1), disabled: total >= form.max, "aria-label": t("ref.more", { loot: lootLabel(card) }) }, "+")))),
    button(t("ref.deal"), async () => {
      const loot = form.cards.flatMap((c) => Array(dealt[c]).fill(c));
      if (await command({ type: "action", action: { type: "deal", player: form.player, loot } })) {
        dealt = Object.fromEntries(form.cards.map((c) => [c, 0]));
      }
    }, { class: "big primary", disabled: total < form.min, "data-command": "deal" }));
}

// -- the sensors tab: replace any reading by hand, or give it back to the sensor
function override(seat, fact, value) {
  return command(value === undefined ? { type: "override", seat, fact, clear: true }
    : { type: "override", seat, fact, value });
}

function drawOverrides(s) {
  const choice = (label, pressed, onclick, attrs = {}) =>
    el("button", { type: "button", class: "chip", "aria-pressed": pressed ? "true" : "false", onclick, ...attrs }, label);
  replace(document.getElementById("overrides"), s.players.map((p) => {
    const r = p.sensors || {};
    const others = s.players.filter((q) => q.seat !== p.seat);
    return el("div", { class: "override", dataset: { seat: p.seat } },
      el("h3", {}, `${p.seat} · ${p.name}`,
        r.manual && r.manual.length ? el("span", { class: "badge manual" }, t("ui.manual")) : null),
      el("div", { class: "row" }, el("span", { class: "what" }, t("ref.aim")),
        choice(t("ref.nobody"), r.aim === null, () => override(p.seat, "aim", null), { "data-aim": "none" }),
        others.map((q) => choice(q.name, r.aim === q.seat, () => override(p.seat, "aim", q.seat), { "data-aim": q.seat }))),
      el("div", { class: "row" }, el("span", { class: "what" }, t("ref.gun")),
        choice(t("ui.gun_raised"), r.raised === true, () => override(p.seat, "raised", true)),
        choice(t("ui.gun_lowered"), r.raised === false, () => override(p.seat, "raised", false))),
      el("div", { class: "row" }, el("span", { class: "what" }, t("ref.standee")),
        choice(t("ui.standee_up"), r.posture === "up", () => override(p.seat, "posture", "up")),
        choice(t("ui.standee_down"), r.posture === "down", () => override(p.seat, "posture", "down"))),
      el("div", { class: "row" }, ["aim", "raised", "posture"].filter((f) => (r.manual || []).includes(f)).map((f) =>
        choice(t(`ref.clear_${f}`), false, () => override(p.seat, f)))));
  }));
}

// -- the phones tab: a QR code per seat, holding its link, until a phone claims the seat;
// then a button to release it (the player's phone is cut off, the link claims it again).
// Beside each code, its link opens the seat on the device in hand (a new tab).
function drawPhones(seats) {
  replace(document.getElementById("phones"), seats.map((s) => el("figure", {
    class: "phone-link", dataset: { seat: s.seat, claimed: s.claimed ? "yes" : "no" } },
  s.claimed ? el("p", { class: "claimed" }, t("ref.phone_claimed"))
    : el("img", { src: `/referee/qr/${s.seat}.svg?g=${state.game}`, alt: t("ref.qr_of", { player: s.player }), width: 180, height: 180 }),
  s.claimed ? null : el("a", { class: "open-here", href: `/referee/seat/${s.seat}`, target: "_blank", rel: "noopener" },
    t("ref.open_here", { player: s.player })),
  el("figcaption", {}, `${s.seat} · ${s.player}`),
  s.claimed ? button(t("ref.release"), () => command({ type: "release", seat: s.seat }),
    { class: "small", "data-command": "release" }) : null)));
}

function redraw(section, data, draw) {
  const key = JSON.stringify(data);
  if (shown[section] === key) return;
  shown[section] = key;
  draw();
}

function render(s) {
  state = s;
  const status = statusLine(s);
  document.getElementById("step").textContent = status;
  document.getElementById("waiting").textContent = s.game ? waitingText(s) : t("ref.no_game");
  redraw("flow", s.commands, () => drawFlow(s.commands));
  const step = `${s.game} ${status}`;
  redraw("actions", [s.commands, step], () => drawActions(s, step));
  const deal = document.getElementById("deal");
  if (Boolean(s.deal) !== !deal.hidden) {
    deal.hidden = !s.deal;
    if (s.deal) {
      dealt = Object.fromEntries(s.deal.cards.map((c) => [c, 0]));
      drawDeal(s.deal);
    }
  }
  redraw("overrides", s.players.map((p) => [p.seat, p.name, p.sensors]), () => drawOverrides(s));
  redraw("phones", s.seats, () => drawPhones(s.seats));
  redraw("final", [s.game, s.final, s.result], () =>  // the whole count, once the game is over
    replace(document.getElementById("final"), s.final ? finalPanel(s) : null));
  document.getElementById("abandon-box").hidden = !(s.game && !s.over);
  renderTable(felt, s);
  countdown.update(s.stage);
  replays.update(s.replays);
}

window.addEventListener("resize", () => state && renderTable(felt, state));

setupFlow({ version: () => (state ? state.version : 0), showTab });
muteButton(document.getElementById("mute"));
voiceButton(document.getElementById("voice"));
connect("/api/events?view=control", render);
