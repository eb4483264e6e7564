// The venue page (companion league): every table live, the standings, the latest games,
// all from one stream of the league's state.

import { connect, el, replace } from "./live.js";
import { listWords, t } from "./words.js";
import { organiserForms } from "./organiser.js";

function tableState(tb) {
  if (!tb.online) return ["offline", t("venue.offline")];
  if (!tb.game) return ["idle", t("venue.no_game")];
  return tb.over ? ["over", t("venue.over")] : ["playing", t("venue.playing")];
}

function tableCard(tb) {
  const [kind, words] = tableState(tb);
  const leaders = new Set(tb.leaders);
  return el("article", { class: "venue-table", dataset: { table: tb.table, online: tb.online ? "yes" : "no", over: tb.over ? "yes" : "no" } },
    el("h3", {}, el("span", {}, tb.table), el("span", { class: "state", dataset: { kind } }, words)),
    tb.game ? el("p", { class: "round" }, t("venue.round", { round: tb.round, rounds: tb.rounds, step: t(`step.${tb.phase}`) })) : null,
    tb.godfather && !tb.over ? el("p", {}, t("venue.godfather", { name: tb.godfather })) : null,
    tb.leaders.length ? el("p", { class: "leaders" }, t(tb.over ? "venue.won" : "venue.leading", { names: listWords(tb.leaders) })) : null,
    el("ul", {}, tb.players.map((p) => el("li", { dataset: { alive: p.alive ? "yes" : "no", leader: leaders.has(p.name) ? "yes" : "no" } },
      p.name, p.alive ? "" : ` (${t("venue.out")})`))));
}

function render(state) {
  document.getElementById("no-tables").hidden = state.tables.length > 0;
  replace(document.getElementById("tables"), state.tables.map(tableCard));
  document.getElementById("no-standings").hidden = state.standings.length > 0;
  replace(document.querySelector("#standings tbody"), state.standings.map((p, i) => el("tr", { dataset: { player: p.name } },
    el("td", {}, i + 1), el("td", {}, el("a", { href: `/players/${p.id}` }, p.name)),
    el("td", { class: "rating" }, p.rating.toFixed(2)), el("td", { class: "played" }, p.games), el("td", {}, p.wins))));
  replace(document.getElementById("games"), state.games.map((g) => el("li", { dataset: { status: g.status, game: g.id } },
    el("a", { href: `/games/${g.id}` }, t("venue.game_line", { id: g.id, table: g.table })), " · ",
    g.winners.length ? t("venue.won", { names: listWords(g.winners) }) : "",
    g.status === "accepted" ? "" : ` · ${t(`venue.status.${g.status}`)}`)));
}

organiserForms();
connect("/api/events", render);
