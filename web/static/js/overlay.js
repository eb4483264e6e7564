// The stream overlay (/overlay), an OBS browser source with a transparent background: the
// table as everyone sees it, live, and the hidden values (the cards down, the hands, the
// loot) as the server releases them, only once the Godfather's delay has passed
// (companion/dashboard/overlay.py keeps the delay: this page is only shown what is due).
// On the Godfather's logged-in tablet the page also sets the delay.

import { connect, el, replace } from "./live.js";
import { renderTable } from "./tableview.js";
import { listWords, lootLabel, statusLine, t, waitingText } from "./words.js";

const POLL_MS = 1000;
const felt = document.getElementById("felt");
const late = document.getElementById("late");
let last = null;

function render(state) {
  last = state;
  document.getElementById("step").textContent = statusLine(state);
  document.getElementById("banner").textContent = waitingText(state);
  renderTable(felt, state);
}

const delayWords = (s) => (s >= 60 ? t("overlay.minutes", { n: s / 60 }) : t("overlay.seconds", { n: s }));

function cardWords(card) {
  if (card === "bang" || card === "click") return t(`card.${card}`);
  return card ? t("overlay.card_down") : t("overlay.no_card");
}

function playerLine(p) {
  const parts = [];
  if (p.hand) parts.push(t("overlay.hand", { bang: p.hand.bang, click: p.hand.click }));
  parts.push(t("overlay.loot", { loot: p.loot.length ? listWords(p.loot.map(lootLabel)) : t("word.nothing") }));
  return el("li", { dataset: { player: p.name } }, el("strong", {}, p.name), " ",
    el("span", { class: "card", dataset: { card: p.card || "none" } }, cardWords(p.card)), ` · ${parts.join(" · ")}`);
}

function showLate(overlay) {
  const shown = overlay.revealed;
  late.hidden = !shown;
  late.dataset.delay = overlay.delay_s;
  if (!shown) { replace(document.getElementById("late-players")); return; }
  document.getElementById("late-title").textContent = t("overlay.late", { delay: delayWords(overlay.delay_s), round: shown.round });
  replace(document.getElementById("late-players"), shown.players.map(playerLine));
}

async function poll() {
  try {
    const res = await fetch("/api/overlay", { cache: "no-store" });
    if (res.ok) showLate(await res.json());
  } catch { /* the table is away: try again */ }
  setTimeout(poll, POLL_MS);
}

function settings() {
  const select = document.getElementById("overlay-delay");
  if (!select) return;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  fetch("/api/overlay", { cache: "no-store" }).then((r) => r.json()).then((o) => { select.value = String(o.delay_s); });
  select.addEventListener("change", async () => {
    const res = await fetch("/api/overlay/delay", { method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ delay_s: Number(select.value) }) });
    document.getElementById("overlay-saved").textContent = res.ok ? t("overlay.saved") : t("overlay.not_saved");
    if (res.ok) showLate(await res.json());
  });
}

settings();
window.addEventListener("resize", () => last && renderTable(felt, last));
connect("/api/events", render);
poll();
