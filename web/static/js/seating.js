// The seating check (GET /api/seating): whether every gun can tell the players of these
// seats apart at this table, and a seating that works when it cannot. Shown on the
// Godfather's New game form before a game and on /calibrate.

import { el, replace } from "./live.js";
import { t } from "./words.js";

export async function showSeating(list, seats) {
  if (!seats.length) { replace(list); return; }
  const res = await fetch(`/api/seating?seats=${seats.join(",")}`, { credentials: "same-origin" });
  if (!res.ok) return;
  const s = await res.json();
  const item = (text, cls = null) => el("li", { class: cls }, text);
  if (s.table === null) { replace(list, item(t("cal.seating_unknown"))); return; }
  if (!s.warnings.length) { replace(list, item(t("cal.seating_ok", { n: s.seats.length }), "ok")); return; }
  const held = (w) => (w.grips.length ? " " + t("cal.seating_grips", {
    grips: w.grips.map((g) => t(`grip.${g.replaceAll(" ", "_")}`)).join(", ") }) : "");
  const lines = s.warnings.map((w) => (w.separation_deg === null
    ? t("cal.seating_far", { gun: w.gun, a: w.targets[0] })
    : t("cal.seating_close", { gun: w.gun, a: w.targets[0], b: w.targets[1],
      sep: Math.round(w.separation_deg), need: Math.round(s.needed_deg) })) + held(w));
  const g = s.suggestion;
  const advice = !g ? t("cal.suggest_none")
    : g.shape === "rect" ? t("cal.suggest_rect", { seating: g.seating })
      : g.shape === "round" ? t("cal.suggest_round", { size: g.size_m, n: g.players }) : g.text;
  replace(list, lines.map((text) => item(text, "warn")), item(advice, "advice"));
}
