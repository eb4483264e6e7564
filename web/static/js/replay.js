// "Show me": a settled countdown's timeline, drawn from what the referee read (the
// snapshot's `replays`, one per countdown of the round): each gun or standee from a second
// before "three" to the cutoff, each aim's span and hold, and why it counted or not, in
// the server's words. On /referee each player's row offers the counts the Godfather may
// put instead (`recount` buttons, made by the server).

import { el, replace } from "./live.js";
import { buttonLabel, say, t } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 760, ROW_H = 34, LEFT = 8, RIGHT = 8;

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

const scale = (r) => (ms) => LEFT + ((ms - r.from_ms) * (W - LEFT - RIGHT)) / (r.cutoff_ms - r.from_ms);

// The axis: the beats ("1", "2", "three"), the cutoff, and what the numbers are.
function axis(r) {
  const x = scale(r);
  const box = svg("svg", { viewBox: `0 0 ${W} 30`, class: "timeline axis", "aria-hidden": "true" });
  r.beats_ms.forEach((ms, i) => {
    const beat = 3 - (r.beats_ms.length - 1 - i);
    const label = beat === 3 ? t("replay.three") : t(`count.beat${beat}`);
    box.append(svg("text", { x: x(ms), y: 20, class: `tick${ms === 0 ? " three" : ""}` }, label));
  });
  box.append(svg("text", { x: W - RIGHT, y: 20, class: "tick end cutoff-label" }, t("replay.cutoff")));
  return box;
}

function timeline(r, row) {
  const x = scale(r);
  const box = svg("svg", { viewBox: `0 0 ${W} ${ROW_H}`, class: "timeline", role: "img",
    "aria-label": row.reasons.map(say).join(" ") });
  for (const bar of row.bars.filter((b) => b.why === "gun_down")) {
    box.append(svg("rect", { x: x(bar.from), y: 1, width: Math.max(1, x(bar.to) - x(bar.from)), height: ROW_H - 2, class: "tl gun_down" }));
  }
  for (const ms of r.beats_ms) box.append(svg("line", { x1: x(ms), x2: x(ms), y1: 0, y2: ROW_H, class: ms === 0 ? "beat three" : "beat" }));
  box.append(svg("line", { x1: x(r.cutoff_ms), x2: x(r.cutoff_ms), y1: 0, y2: ROW_H, class: "cutoff" }));
  for (const bar of row.bars.filter((b) => b.why !== "gun_down")) {
    const x1 = x(bar.from), width = Math.max(2, x(bar.to) - x1);
    const group = svg("g", { class: `tl ${bar.why}`, "data-why": bar.why });
    group.append(svg("rect", { x: x1, y: 7, width, height: ROW_H - 14, rx: 3 }));
    if (bar.hold_to !== undefined && bar.hold_to > bar.from) {
      group.append(svg("line", { x1: x(bar.hold_to), x2: x(bar.hold_to), y1: 3, y2: ROW_H - 3, class: "hold" }));
    }
    if (bar.target.length) group.append(svg("text", { x: x1 + 4, y: ROW_H / 2 + 5, class: "label" }, bar.target.join(" / ")));
    box.append(group);
  }
  return box;
}

function rowPanel(r, row, onRecount) {
  return el("section", { class: "replay-row", dataset: { player: row.player, override: row.override ? "yes" : "no" } },
    el("h3", {}, `${row.player} · `, el("span", { class: "verdict" }, say(row.verdict)),
      row.override ? el("span", { class: "badge manual" }, t("replay.overridden")) : null),
    timeline(r, row),
    el("ul", { class: "reasons" }, row.reasons.map((reason) => el("li", { dataset: { key: reason.key } }, say(reason)))),
    onRecount && row.recount?.length ? el("div", { class: "row recount" }, el("span", { class: "what" }, t("replay.recount")),
      row.recount.map((b) => el("button", { type: "button", class: "chip", "data-recount": JSON.stringify(b.command), onclick: () => onRecount(b.command) }, buttonLabel(b)))) : null);
}

function legend() {
  const keys = [["counted", "replay.key_counted"], ["replaced", "replay.key_other"], ["swept", "replay.key_swept"],
    ["gun_down", "replay.key_gun_down"], ["down", "replay.key_down"], ["hold", "replay.key_hold"]];
  return el("ul", { class: "replay-legend" }, keys.map(([kind, key]) => el("li", { dataset: { kind } }, t(key))));
}

export function replayPanel(r, onRecount = null) {
  const step = r.kid ? t("replay.kid") : t(`step.${r.step}`);
  return el("div", { class: "replay", dataset: { replay: r.id, step: r.step } },
    el("h2", {}, t("replay.title", { round: r.round, step })),
    axis(r), r.rows.map((row) => rowPanel(r, row, onRecount)),
    el("p", { class: "hint" }, t("replay.axis")), legend());
}

// The "Show me the count" button and its dialog, kept up to date with the snapshots.
export class ReplayDialog {
  constructor(button, dialog, onRecount = null) {
    this.button = button;
    this.dialog = dialog;
    this.onRecount = onRecount;
    this.replays = [];
    this.chosen = null;
    this.drawn = null;
    button.addEventListener("click", () => { this.chosen = null; this.draw(true); this.dialog.showModal(); });
  }

  update(replays) {
    this.replays = replays || [];
    this.button.hidden = this.replays.length === 0;
    if (this.dialog.open && !this.replays.length) this.dialog.close();
    if (this.dialog.open) this.draw(false);
  }

  draw(force) {
    const shown = this.replays.find((r) => r.id === this.chosen) || this.replays[this.replays.length - 1];
    if (!shown) return;
    const key = JSON.stringify([shown, this.replays.map((r) => r.id)]);
    if (!force && key === this.drawn) return;
    this.drawn = key;
    const pick = this.replays.length > 1 ? el("div", { class: "row" }, el("span", { class: "what" }, t("replay.pick")),
      this.replays.map((r) => el("button", { type: "button", class: "chip", "aria-pressed": r === shown ? "true" : "false",
        onclick: () => { this.chosen = r.id; this.draw(true); } }, r.kid ? t("replay.kid") : t(`step.${r.step}`)))) : null;
    replace(this.dialog, pick, replayPanel(shown, this.onRecount),
      el("form", { method: "dialog" }, el("button", { class: "big", type: "submit" }, t("replay.close"))));
  }
}
