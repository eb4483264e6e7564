// Every visible word comes from the page's catalog (web/i18n/<lang>.json, embedded by the
// server): fixed labels, power names, loot, and game events rendered from their dicts.

const catalog = JSON.parse(document.getElementById("i18n").textContent);
const lang = document.documentElement.lang || "en";

// t("event.took", {player: "Ana"}): the string with {name} fields filled in.
export function t(key, vars = {}) {
  const text = catalog[key];
  if (text === undefined) {
    console.warn(`missing string ${key}`);
    return key;
  }
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

// The plural form of `base` for n: French counts 0 and 1 as singular.
export function plural(base, n, vars = {}) {
  const one = lang === "fr" ? n <= 1 : n === 1;
  return t(`${base}.${one ? "one" : "other"}`, { n, ...vars });
}

export function listWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${t("word.and")} ${items[items.length - 1]}`;
}

const moneyFormat = new Intl.NumberFormat(lang, {
  style: "currency", currency: "USD", maximumFractionDigits: 0,
});
export const money = (n) => moneyFormat.format(n);

export const powerName = (id) => (id ? t(`power.${id}.name`) : t("power.none"));
export const powerReminder = (id) => (id ? t(`power.${id}.reminder`) : "");
const lootName = (card) => t(`loot.${card}`);            // "a $5k bill"
export const lootLabel = (card) => t(`loot_label.${card}`);     // "$5k bill"
const lootList = (cards) => (cards.length ? listWords(cards.map(lootName)) : t("word.nothing"));
const stepName = (phase) => t(`step.${phase}`);
const kindName = (kind) => t(`kind.${kind}`);

// One game event as a sentence in the page's language; the dict is the source of truth.
export function eventText(e) {
  const p = e.player;
  switch (e.type) {
    case "round": return t("event.round", { round: e.round, godfather: e.godfather, loot: lootList(e.loot) });
    case "wounded": return plural("event.wounded", e.by.length, { by: listWords(e.by), player: p, wounds: plural("count.wounds", e.wounds) });
    case "healed": return t("event.healed", { player: p, wounds: plural("count.wounds", e.wounds) });
    case "lucky": return t("event.lucky", { player: p, n: e.by.length });
    case "revealed": return t(`event.revealed_${e.card}`, { player: p, target: e.target });
    // the stolen and drawn cards stay secret: the public event only counts them
    case "professional": return plural("event.professional", e.loot_count ?? 0, { player: p, target: e.target });
    case "vulture": return plural("event.vulture", e.loot_count ?? 0, { player: p, prey: e.prey });
    case "junk": return t("event.junk", { player: p, gave: lootName(e.gave) });
    case "dealt": return t("event.dealt", { player: p, loot: lootList(e.loot) });
    case "stealthy": case "cute": case "took":
      return t(`event.${e.type}`, { player: p, loot: lootName(e.loot) });
    case "forbid": return t("event.forbid", { player: p, target: e.target, kind: kindName(e.kind) });
    case "clip": return t(e.reloaded ? "event.clip_reloaded" : "event.clip_empty", { player: p });
    case "first_aid": return e.healed ? t("event.first_aid", { player: p, wounds: plural("count.wounds", e.healed) })
      : t("event.first_aid_none", { player: p });
    case "unclaimed": return t(e.carried ? "event.unclaimed_carried" : "event.unclaimed_discarded", { loot: lootList(e.loot) });
    case "game_over":
      if (!e.winners.length) return t("event.game_over_nobody");
      return t(e.winners.length > 1 ? "event.game_over_shared" : "event.game_over", { winners: listWords(e.winners) });
    case "ordered": return t("event.ordered", { player: p, order: e.order });
    case "hustled": return t("event.hustled", { player: p, victim: e.victim });
    case "swapped": case "lay_down": case "smart": case "smart_pass": case "too_slow":
    case "eliminated": case "passed": case "good_friend":
      return t(`event.${e.type}`, { player: p });
    default: return e.text || e.type;
  }
}

// A text the server made, {key, args, count?}: every arg drawn in the page's language (a
// list joined with "and", a nested text, {money: n} as money, else the value as it is);
// with a `count`, the key's plural form for it.
export function say(item) {
  const arg = (v) => {
    if (Array.isArray(v)) return listWords(v.map(arg));
    if (v && typeof v === "object") return "money" in v ? money(v.money) : say(v);
    return v;
  };
  const args = Object.fromEntries(Object.entries(item.args || {}).map(([k, v]) => [k, arg(v)]));
  return item.count === undefined ? t(item.key, args) : plural(item.key, item.count, args);
}

// A ready-made button's label ({command, label, args} from the server).
export const buttonLabel = (b) => say({ key: b.label, args: b.args });

// A refused command in the page's words: what its status means to a player. The server's
// own sentence (English, for whoever looks after the table) goes to the browser's console.
export function refusal(res) {
  const key = { 409: "ui.stale", 401: "ui.refused_access", 403: "ui.refused_access",
    503: "ui.refused_busy", 507: "ui.refused_journal" }[res.status] ?? "ui.refused_rules";
  if (res.body?.error) console.info(`refused (${res.status}): ${res.body.error}`);
  return t(key);
}

// "Round 2 of 8 · Hold-up · Paused": the header line of every page.
export function statusLine(state) {
  if (!state.game) return t("ui.no_game_short");
  const parts = [t("ui.round_of", { round: state.round, rounds: state.rounds }), stepName(state.phase)];
  if (state.stage && state.stage.name !== "idle") parts.push(t(`stage.${state.stage.name}`));
  if (state.paused) parts.push(t("ui.paused"));
  return parts.join(" · ");
}

// What the table waits for, in words: the server's `waiting`, then who must lie their
// standee down and who must stand theirs back up.
export function waitingText(state) {
  const w = state.waiting;
  if (!w) return "";
  return [w, w.lay_down, w.stand_up].filter(Boolean).map(say).join(" ");
}
