"""The balance lab's page: one self-contained HTML file (inline CSS and SVG, no script, no
network) drawn from `lab_stats.summarize`'s data; the same data goes to JSON."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from companion.bots.svg import histogram, percent, rate_bars

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 760px; margin: 2em auto; color: #222;
       padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .6em 0; }
td, th { padding: .15em .7em; text-align: right; border-bottom: 1px solid #eee; }
td:first-child, th:first-child { text-align: left; }
.chart { display: block; max-width: 100%; height: auto; margin: .5em 0; }
.chart text { font-size: 12px; fill: #333; }
.bar { fill: #4a78b0; } .bar:hover { fill: #2b5b95; }
.ci { stroke: #222; stroke-width: 1.5; }
.reference { stroke: #b03a2e; stroke-dasharray: 4 3; }
.note { color: #555; font-size: .92em; }
"""

ENDING_WORDS = {
    "richest": "the richest survivor won outright",
    "tiebreak": "a tie on money, broken by the most wounds (R15)",
    "shared": "a tie on money and wounds: the win is shared",
    "last_standing": "the last one standing won (R9)",
    "no_winner": "everybody died: no winner",
}


def page(data: dict[str, Any], command: str) -> str:
    plan = data["plan"]
    title = (f"Cash 'n Guns balance lab: {plan['games']:,} games of {plan['players']} players"
             + (" with powers" if plan["powers"] else ""))
    body = [
        f"<h1>{escape(title)}</h1>",
        f'<p class="note">Reproduce with <code>{escape(command)}</code>. Rates carry their 95 % '
        "Wilson interval; a win shared by k players counts 1/k for each.</p>",
        _bots(data), _rates(data), _decided(data), _wealth(data), _deaths(data),
        _godfather(data),
    ]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{STYLE}</style></head>\n<body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def _bots(data: dict[str, Any]) -> str:
    avg = data["averages"]
    items = "".join(f"<li>{escape(s)}</li>" for s in data["styles"].values())
    return ("<h2>The bots</h2><p>Bots turn one seat each game and tables change their line-up "
            f"as they go, so every style sits at every seat as often.</p><ul>{items}</ul>"
            f"<p>A game lasts {avg['rounds']:.2f} rounds on average, with {avg['deaths']:.2f} "
            f"deaths and {avg['actions']:.0f} actions.</p>")


def _rates(data: dict[str, Any]) -> str:
    even = data["even_share"]
    out = ["<h2>Who wins</h2>",
           _rated("by_style", "By bot style", data["by_style"], "style", even),
           _rated("by_seat", "By seat", data["by_seat"], "seat", even,
                  "Seat 1 holds the Godfather's desk in round 1.")]
    if data["by_power"]:
        out.append(_rated("by_power", "By power", data["by_power"], "power", even))
    return "\n".join(out)


def _rated(name: str, title: str, rows: Sequence[dict[str, Any]], what: str,
           even: float | None, note: str = "", rate: str = "win rate") -> str:
    """A chart of rates with their intervals, and the same figures as a table."""
    lines = "".join(
        f"<tr><td>{escape(r['label'])}</td><td>{percent(r['rate'])}</td>"
        f"<td>{percent(r['low'])} – {percent(r['high'])}</td><td>{r['n']:,}</td></tr>"
        for r in rows)
    return (f"<h3>{escape(title)}</h3>" + (f'<p class="note">{escape(note)}</p>' if note else "")
            + rate_bars(name, rows, even)
            + f"<table><tr><th>{what}</th><th>{rate}</th><th>95 % interval</th>"
            f"<th>seats</th></tr>{lines}</table>")


def _decided(data: dict[str, Any]) -> str:
    d = data["decided_by"]
    games = data["plan"]["games"]
    rows = "".join(f"<tr><td>{escape(ENDING_WORDS[e['end']])}</td><td>{e['games']:,}</td>"
                   f"<td>{percent(e['share'])}</td></tr>" for e in d["endings"])
    bonus = d["diamond_bonus"]
    tie = next(e for e in d["endings"] if e["end"] == "tiebreak")
    return (
        "<h2>How games are decided</h2>"
        + histogram("endings", d["endings"], "games", lambda b: b["end"].replace("_", " "),
                    "games")
        + f"<table><tr><th>ending</th><th>games</th><th>share</th></tr>{rows}</table>"
        f"<p>The $60k diamond bonus went to someone in {bonus['held']:,} games "
        f"({percent(bonus['held'] / games)}); its holder won {bonus['bonus_holder_won']:,} of "
        f"them. It <strong>decided the game</strong> (the winners would differ without it) in "
        f"{bonus['games']:,} games ({percent(bonus['games'] / games)}). A tie-break on wounds "
        f"decided {tie['games']:,} games ({percent(tie['share'])}).</p>")


def _wealth(data: dict[str, Any]) -> str:
    w = data["wealth"]

    def money(b: dict[str, Any]) -> str:
        return f"${b['from'] // 1000}k"

    return ("<h2>Wealth at the end</h2><p>Final totals (bills, diamonds, paintings, bonus) of "
            f"the players alive at the end, in steps of ${w['step'] // 1000}k.</p>"
            + histogram("wealth_survivors", w["survivors"], "count", money, "players")
            + "<h3>Winners' totals</h3>"
            + histogram("wealth_winners", w["winners"], "count", money, "winners"))


def _deaths(data: dict[str, Any]) -> str:
    d = data["deaths"]
    out = ["<h2>Deaths</h2><h3>Deaths per game</h3>",
           histogram("deaths_per_game", d["per_game"], "games", lambda b: str(b["deaths"]),
                     "games"),
           "<h3>Round of death</h3>",
           histogram("deaths_by_round", d["by_round"], "deaths",
                     lambda b: f"round {b['round']}", "deaths")]
    if d["by_power"]:
        out.append(_rated("deaths_by_power", "Death rate by power", d["by_power"], "power",
                          None, rate="death rate"))
    return "\n".join(out)


def _godfather(data: dict[str, Any]) -> str:
    g = data["godfather"]
    even = data["even_share"]
    return (
        "<h2>The New Godfather</h2><p>The New Godfather token (R12) is a share like a card: "
        "whoever takes it holds the desk next round (first share of the split, the privilege "
        f"order). It was taken in {percent(g['taken_share'])} of {g['rounds']:,} rounds.</p>"
        + _rated("godfather_tokens", "Win rate by tokens taken in the game", g["by_tokens"],
                 "tokens", even)
        + _rated("godfather_rounds", "Win rate by rounds spent at the desk",
                 g["by_rounds_as_godfather"], "rounds as Godfather", even))
