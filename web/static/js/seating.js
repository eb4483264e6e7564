// The seating check (GET /api/seating): whether every gun can tell the players of these
// seats apart at this table, with which grips and stances it fails, and a seating that
// works when it cannot. Shown on the Godfather's New game form before a game (which will
// not start on the server's "refuse") and on /calibrate.

import { el, replace } from "./live.js";
import { t } from "./words.js";

const gripWords = (grips) => grips.map((g) => t(`grip.${g.replaceAll(" ", "_")}`)).join(", ");

// The latest question asked for each list: on a slow network an earlier question's
// answer can arrive after a later one's, and must then not be drawn over it.
const asked = new WeakMap();

// The report drawn, or null (no seats, no answer, or a later question asked since); the
// caller reads its `verdict`.
export async function showSeating(list, seats) {
  const question = (asked.get(list) || 0) + 1;
  asked.set(list, question);
  if (!seats.length) { replace(list); return null; }
  const res = await fetch(`/api/seating?seats=${seats.join(",")}`, { credentials: "same-origin" });
  const s = res.ok ? await res.json() : null;
  if (!s || asked.get(list) !== question) return null;
  const item = (text, cls = null) => el("li", { class: cls }, text);
  if (s.table === null) { replace(list, item(t("cal.seating_unknown"))); return s; }
  if (s.verdict === "ok") { replace(list, item(t("cal.seating_ok", { n: s.seats.length }), "ok")); return s; }
  const held = (w) => (w.grips.length ? " " + t("cal.seating_grips", { grips: gripWords(w.grips) }) : "")
    + (w.stances.length ? " " + t("cal.seating_stances", {
      stances: w.stances.map((st) => t(`stance.${st}`)).join(", ") }) : "");
  const lines = s.warnings.map((w) => (w.separation_deg === null
    ? t("cal.seating_far", { gun: w.gun, a: w.targets[0] })
    : t("cal.seating_close", { gun: w.gun, a: w.targets[0], b: w.targets[1],
      sep: Math.round(w.separation_deg), need: Math.round(s.needed_deg) })) + held(w));
  if (s.hidden_badges.length) lines.push(t("cal.seating_hidden", { grips: gripWords(s.hidden_badges) }));
  const head = s.verdict === "refuse"
    ? item(t("cal.seating_refuse", { grip: gripWords([s.table.grip]) }), "refuse")
    : item(t("cal.seating_warn"), "warn");
  head.dataset.verdict = s.verdict;
  const g = s.suggestion;
  const advice = !g ? t("cal.suggest_none")
    : g.shape === "rect" ? t("cal.suggest_rect", { seating: g.seating })
      : g.shape === "round" ? t("cal.suggest_round", { size: g.size_m, n: g.players }) : g.text;
  replace(list, head, lines.map((text) => item(text, "warn")), item(advice, "advice"));
  return s;
}
