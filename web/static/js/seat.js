// A player's phone (/seat/<n>?token=…): their own card, hand, loot and power; the
// secret choices are made here and sent with the seat's token, never shown elsewhere.

import { Countdown, muteButton } from "./countdown.js";
import { connect, el, notice, post, replace } from "./live.js";
import {
  buttonLabel, lootLabel, plural, powerName, powerReminder, say, statusLine, t, waitingText,
} from "./words.js";

const phone = document.getElementById("phone");
const seat = Number(phone.dataset.seat);
const auth = { "X-Seat-Token": phone.dataset.token, "X-Seat": String(seat) };
const countdown = new Countdown(document.getElementById("countdown"));
let state = null;
let drawnActions = null;

async function act(action) {
  const res = await post("/api/command", { version: state.version, type: "action", action }, auth);
  if (res.ok) notice("");
  else notice(res.status === 409 ? t("ui.stale") : `${t("ui.refused")} ${res.body.error || res.status}`);
}

// The phone's own buttons, as the server made them (`me.commands`).
function drawActions(commands) {
  const key = JSON.stringify(commands);
  if (key === drawnActions) return;
  drawnActions = key;
  replace(document.getElementById("choices"), commands.map((b) => {
    const a = b.command.action;
    return el("button", {
      type: "button", class: `big act-${a.type}${a.card ? ` card-${a.card}` : ""}`,
      "data-action": JSON.stringify(a), onclick: () => act(a),
    }, buttonLabel(b));
  }));
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
  drawActions(me.commands);
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

muteButton(document.getElementById("mute"));
connect(`/api/events?seat=${seat}&token=${encodeURIComponent(phone.dataset.token)}`, render);
