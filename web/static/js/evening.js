// The night at this table (GET /api/evening): each player's games, wins and loot, and the
// awards, shown between games: inside the final count when a game ends, on the page when
// no game is in play, hidden during a game. The Godfather's tablet (logged in) can end the
// night with two taps; the next game then begins a new one.

import { el, followState, replace } from "./live.js";
import { listWords, money, plural, t } from "./words.js";

const panel = document.getElementById("evening");
const home = panel.parentNode;
const end = document.getElementById("evening-end");
const csrf = document.querySelector('meta[name="csrf-token"]')?.content;
let shown = null; // the game and whether it was over, when the night was last fetched

function awardText(a) {
  const names = listWords(a.names);
  if (a.award === "haul") return t("evening.detail.haul", { names, money: money(a.value) });
  return plural(`evening.detail.${a.award}`, a.value, { names });
}

function draw(night) {
  replace(panel.querySelector("tbody"), night.standings.map((r) => el("tr", { dataset: { name: r.name } },
    el("th", { scope: "row" }, r.name), el("td", {}, String(r.played)), el("td", {}, String(r.wins)),
    el("td", {}, money(r.loot)))));
  replace(document.getElementById("evening-awards"), night.awards.map((a) => el("li", { dataset: { award: a.award } },
    el("strong", {}, t(`evening.award.${a.award}`)), " ", awardText(a))));
  document.getElementById("evening-standings").hidden = night.games === 0;
  document.getElementById("evening-none").hidden = night.games > 0;
  panel.dataset.games = night.games;
}

async function load() {
  const res = await fetch("/api/evening");
  if (res.ok) draw(await res.json());
}

function follow(state) {
  const between = !state.game || state.over;
  const final = document.querySelector("#final .final");
  (final || home).append(panel); // (the final count is drawn anew on each change)
  panel.hidden = !between;
  const key = `${state.game}:${state.over}`;
  if (between && key !== shown) load();
  shown = key;
}

if (end) {
  let armed = false;
  end.addEventListener("click", async () => {
    if (!armed) {
      armed = true;
      end.textContent = t("evening.confirm");
      return;
    }
    armed = false;
    end.textContent = t("evening.end");
    const res = await fetch("/api/evening/end", { method: "POST", headers: { "X-CSRF-Token": csrf } });
    if (res.ok) draw(await res.json());
  });
}
followState(follow);
