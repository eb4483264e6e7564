// A player's phone (/seat/<n>?token=…): their own card, hand, loot and power; the
// secret choices are made here, never shown elsewhere. The first phone to open the seat's
// link claims the seat (a cookie only this phone holds); the server pages say when
// another phone holds it, or the link is from an earlier game.

import { Countdown, muteButton } from "./countdown.js";
import { connect, el, notice, post, replace } from "./live.js";
import {
  buttonLabel, lootLabel, money, plural, powerName, powerReminder, refusal, say, statusLine, t, waitingText,
} from "./words.js";

const phone = document.getElementById("phone");
const seat = Number(phone.dataset.seat);
let csrf = phone.dataset.csrf; // derived from this phone's claim, sent with each command
const countdown = new Countdown(document.getElementById("countdown"));
let state = null;
let drawnActions = null;
let stopStream = () => {};

async function act(action) {
  const res = await post("/api/command", { version: state.version, type: "action", action },
    { "X-Seat": String(seat), "X-CSRF-Token": csrf });
  if (res.ok) notice("");
  else notice(refusal(res));
}

// The phone's own buttons, as the server made them (`me.commands`): in the server's
// order, a box for each step (`group`) with its heading.
function drawActions(commands) {
  const key = JSON.stringify(commands);
  if (key === drawnActions) return;
  drawnActions = key;
  const groups = [];
  for (const b of commands) {
    if (groups.at(-1)?.name !== b.group) groups.push({ name: b.group, buttons: [] });
    groups.at(-1).buttons.push(b);
  }
  replace(document.getElementById("choices"), groups.map((g) => el("section",
    { class: "card-box choice-group", "data-group": g.name },
    el("h2", {}, t(`phone.group_${g.name}`)),
    el("div", { class: "choice-buttons" }, g.buttons.map((b) => {
      const a = b.command.action;
      return el("button", {
        type: "button", class: `big act-${a.type}${a.card ? ` card-${a.card}` : ""}`,
        "data-action": JSON.stringify(a), onclick: () => act(a),
      }, buttonLabel(b));
    })))));
}

// A sensored seat's aim and posture come from its gun and standee (no button for them): the
// phone says what they read now, as the server worded it, and marks the Godfather's override.
// Once the game is over, the sensors read nothing that counts: the section goes.
function drawSensors(me, over) {
  const sensors = over ? {} : me.sensors || {};
  document.getElementById("my-sensors").hidden = !sensors.gun && !sensors.standee;
  for (const [id, reading] of [["my-gun", sensors.gun], ["my-standee", sensors.standee]]) {
    const line = document.getElementById(id);
    line.hidden = !reading;
    line.textContent = reading ? say(reading) : "";
  }
  document.getElementById("my-override").hidden = over || !me.overridden?.length;
}

// The end of the game: this player's place and total, the diamond bonus if theirs, and the
// rule that decided (as the server ranked and worded them: `final`, `result`).
function drawResult(s, name) {
  const row = s.final?.find((r) => r.name === name);
  document.getElementById("my-result").hidden = !row;
  if (!row) return;
  const args = { rank: row.rank, count: s.final.length, total: money(row.score.total) };
  const key = row.rank === 1 && s.winners.includes(name)
    ? (s.winners.length > 1 ? "phone.result_shared" : "phone.result_win")
    : (row.alive ? "phone.result_rank" : "phone.result_out");
  document.getElementById("my-rank").textContent = t(key, args);
  const bonus = document.getElementById("my-bonus");
  bonus.hidden = !row.bonus;
  bonus.textContent = row.bonus ? t("phone.result_bonus", { n: row.diamond_cards }) : "";
  document.getElementById("my-rule").textContent = say(s.result.tiebreak);
  document.getElementById("my-winners").textContent = say(s.result.winners);
}

function render(s) {
  state = s;
  document.getElementById("step").textContent = statusLine(s);
  countdown.update(s.stage);
  const me = s.me;
  if (!me) {
    document.getElementById("status").textContent = t("phone.not_playing");
    return;
  }
  const p = s.players.find((q) => q.seat === seat);
  document.getElementById("me-name").textContent = t("phone.title", { player: me.player, n: seat });
  document.getElementById("my-card").textContent = me.card ? t(`phone.card_${me.card}`)
    : (p.chosen ? t("phone.card_hidden") : t("phone.no_card"));
  document.getElementById("hand").textContent = me.hand
    ? t("phone.hand", { bang: me.hand.bang, click: me.hand.click }) : t("phone.hand_physical");
  const turn = document.getElementById("my-turn");
  turn.hidden = !me.turn;
  turn.textContent = me.turn ? t(me.turn) : "";
  drawActions(me.commands);
  drawSensors(me, s.over);
  drawResult(s, me.player);
  const back = document.getElementById("hand-back");
  back.hidden = !me.stand_in;
  if (me.stand_in) back.textContent = t("phone.hand_back", { style: t(`bot.${me.stand_in}`) });
  document.getElementById("status").textContent = [
    p.alive ? say(p.standee) : t("ui.out"),
    plural("count.wounds", p.wounds), waitingText(s),
  ].join(" · ");
  replace(document.getElementById("my-loot"), me.loot.length
    ? me.loot.map((card) => el("li", { class: `loot-card ${card.replace(/[0-9]+/, "")}` }, lootLabel(card)))
    : el("li", {}, t("word.nothing")));
  document.getElementById("power-name").textContent = powerName(me.power);
  document.getElementById("power-reminder").textContent = powerReminder(me.power);
}

// The link opened on this phone first: claim the seat, then drop the link from the address
// bar (the claim's cookie opens the page from now on). Refused (another phone got there
// first, or a new game began): reload, and the server's page says why.
async function claim() {
  const res = await post("/api/claim", { seat, token: phone.dataset.token });
  if (!res.ok) {
    if (res.status === 409 || res.status === 403) location.reload();
    else notice(refusal(res));
    return false;
  }
  csrf = res.body.csrf;
  history.replaceState(null, "", `/seat/${seat}`);
  return true;
}

// In the demo: the seat's bot plays it again; this phone lets it go (the link claims it again).
// The stream is closed first: the seat's release ends it, which is no lost connection.
async function handBack() {
  stopStream();
  const res = await post(`/api/seat/${seat}/release`, {}, { "X-CSRF-Token": csrf });
  if (!res.ok) { notice(refusal(res)); stopStream = connect(`/api/events?seat=${seat}`, render); return; }
  replace(phone, el("p", { class: "hint", role: "status" },
    t("phone.handed_back", { style: t(`bot.${state.me.stand_in}`) })));
}

document.getElementById("hand-back").addEventListener("click", handBack);
muteButton(document.getElementById("mute"));
if (csrf || await claim()) {
  document.getElementById("claim").hidden = false;
  stopStream = connect(`/api/events?seat=${seat}`, render);
}
