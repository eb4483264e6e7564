"""The aim bench's figures as people read them: Markdown tables, the chart, and the
totals per grip and seating over offsets and seeds with their confidence bounds."""

from __future__ import annotations

import math

from aim_scenes import PEOPLE

from companion.tablesim.advice import seating_verdict
from companion.tablesim.geometry import GRIPS, STANCES

LOCK_OFFSETS = (1.0, 2.0, 3.0)  # the 99.5 % target with the lock LED holds at these

def meets(r: dict) -> bool:
    """The targets: wrong <= 0.5 %, no sweep counted, and >= 99.5 % correct."""
    return r["wrong"] <= 0.005 and r["sweeps_counted"] == 0 and r["correct"] >= 0.995


def svg_chart(results: list[dict], floor: float = 0.8) -> str:
    """Stacked bars of the held aims' shares, one per case, grouped by table; the scale
    starts at `floor` so that a tenth of a percent shows, with the 99.5 % target drawn."""
    colours = (("correct", "#2e7d32"), ("ambiguous", "#f9a825"), ("none", "#90a4ae"),
               ("wrong", "#c62828"))
    groups: dict[str, list[dict]] = {}
    for r in results:
        groups.setdefault(f"{r['shape']} {r['size_m']:.1f} m {r['seating']}", []).append(r)
    bar, gap, top, height, left = 4, 8, 56, 300, 50
    width = max(left + sum(len(g) * bar + gap for g in groups.values()) + 20, 640)
    sweeps = sum(r["sweeps"] for r in results)
    counted = sum(round(r["sweeps_counted"] * r["sweeps"]) for r in results)

    def y_of(share: float) -> float:
        return top + height * (1 - (max(share, floor) - floor) / (1 - floor))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{top + height + 130}"'
           f' font-family="sans-serif" font-size="11">',
           f'<text x="{left}" y="18" font-size="14">Held aims counted, by table; in each group '
           f'offsets 1 to 5° RMS, lock feedback off then on</text>',
           f'<text x="{left}" y="36">Sweeps counted: {counted} of {sweeps}. Scale from '
           f'{floor:.0%}; dashed: the 99.5 % target.</text>']
    for frac in (floor, 0.85, 0.9, 0.95, 1.0):
        out.append(f'<line x1="{left}" x2="{width - 20}" y1="{y_of(frac):.1f}" '
                   f'y2="{y_of(frac):.1f}" stroke="#ddd"/><text x="{left - 5}" '
                   f'y="{y_of(frac) + 4:.1f}" text-anchor="end">{frac:.0%}</text>')
    x = left
    for name, group in groups.items():
        group = sorted(group, key=lambda r: (r["feedback"], r["offset_deg"]))
        out.append(f'<text transform="translate({x + len(group) * bar / 2:.1f},'
                   f'{top + height + 8}) rotate(60)">{name}</text>')
        for r in group:
            title = (f"{name}, offset {r['offset_deg']:g}, feedback "
                     f"{'on' if r['feedback'] else 'off'}: " + ", ".join(
                         f"{k} {r[k]:.1%}" for k, _ in colours))
            out.append(f'<g class="case"><title>{title}</title>')
            share = 0.0
            for key, colour in colours:
                low, share = y_of(share), share + r[key]
                high = y_of(share)
                if low - high > 0:
                    out.append(f'<rect x="{x}" y="{high:.2f}" width="{bar}" '
                               f'height="{low - high:.2f}" fill="{colour}"/>')
            out.append("</g>")
            x += bar
        x += gap
    out.append(f'<line x1="{left}" x2="{width - 20}" y1="{y_of(0.995):.1f}" '
               f'y2="{y_of(0.995):.1f}" stroke="#000" stroke-dasharray="4 3"/>')
    for i, (key, colour) in enumerate(colours):
        out.append(f'<rect x="{left + 110 * i}" y="{top + height + 110}" width="10" height="10" '
                   f'fill="{colour}"/><text x="{left + 110 * i + 14}" '
                   f'y="{top + height + 119}">{"no aim" if key == "none" else key}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def table_text(results: list[dict]) -> str:
    """The figures as a Markdown table: one row per table and lock feedback, the offsets
    across; wrong and sweeps are the worst and the total over all offsets."""
    groups: dict[tuple, dict[float, dict]] = {}
    for r in results:
        key = (f"{r['shape']} {r['size_m']:.1f} m {r['seating']}", r["feedback"])
        groups.setdefault(key, {})[r["offset_deg"]] = r
    offsets = sorted({r["offset_deg"] for r in results})
    rows = ["| table | lock | " + " | ".join(f"correct {o:g}°" for o in offsets)
            + " | ambiguous 3° | no aim 3° | held aims 3° | worst wrong | sweeps counted | "
            "lowered counted |",
            "|---|---|" + "---:|" * (len(offsets) + 6)]
    for (name, feedback), by_offset in groups.items():
        at3 = by_offset.get(3.0, next(iter(by_offset.values())))
        sweeps = sum(r["sweeps"] for r in by_offset.values())
        counted = sum(round(r["sweeps_counted"] * r["sweeps"]) for r in by_offset.values())
        lowered = sum(r["tally"].get("lower:seat", 0) for r in by_offset.values())
        rows.append(
            f"| {name} | {'on' if feedback else 'off'} | "
            + " | ".join(f"{by_offset[o]['correct']:.1%}" for o in offsets)
            + f" | {at3['ambiguous']:.1%} | {at3['none']:.1%} | {at3['held']} "
            f"| {max(r['wrong'] for r in by_offset.values()):.1%} | {counted} of {sweeps} "
            f"| {lowered} |")
    return "\n".join(rows)


def grip_table_text(results: list[dict]) -> str:
    """--grips figures: one row per grip, stance and table; lock off / on side by side."""
    groups: dict[tuple, dict[bool, dict]] = {}
    for r in results:
        key = (r["grip"], r["stance"], f"{r['shape']} {r['size_m']:.1f} m {r['seating']}",
               r["offset_deg"])
        groups.setdefault(key, {})[r["feedback"]] = r
    rows = ["| grip | players | table | offset | correct (lock off / on) | wrong (off / on) "
            "| ambiguous, none (off) | sweeps counted | lowered counted | lazy 6-8° correct "
            "| shaky correct |",
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]

    def share(r: dict, kind: str) -> str:
        n = sum(v for k, v in r["tally"].items() if k.startswith(kind + ":"))
        return f"{r['tally'].get(kind + ':correct', 0) / n:.1%}" if n else "-"

    for (grip, stance, name, offset), by in groups.items():
        off, on = by[False], by[True]
        sweeps = sum(r["sweeps"] for r in by.values())
        counted = sum(r["tally"].get("sweep:seat", 0) for r in by.values())
        lowered = sum(r["tally"].get("lower:seat", 0) for r in by.values())
        rows.append(f"| {grip} | {PEOPLE[stance]} | {name} | {offset:g}° "
                    f"| {off['correct']:.1%} / {on['correct']:.1%} "
                    f"| {off['wrong']:.1%} / {on['wrong']:.1%} | {off['ambiguous']:.1%}, "
                    f"{off['none']:.1%} | {counted} of {sweeps} | {lowered} "
                    f"| {share(off, 'lazy')} | {share(off, 'shaky')} |")
    return "\n".join(rows)




def rate_above(events: int, n: int, confidence: float = 0.95) -> float:
    """The exact (Clopper-Pearson) one-sided upper bound of a rate seen `events` times in
    `n`: the rate at which seeing so few would happen only 1 - confidence of the time."""
    if n == 0 or events >= n:
        return 1.0

    def tail(p: float) -> float:  # P(X <= events) for X ~ Binomial(n, p)
        return sum(math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                            + k * math.log(p) + (n - k) * math.log1p(-p))
                   for k in range(events + 1))

    low, high = events / n, 1.0
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (mid, high) if tail(mid) > 1 - confidence else (low, mid)
    return high


def _pool(rs: list[dict]) -> dict:
    """Cases' counts added up: held aims, wrong seats, correct with the lock at 1 to 3°,
    sweeps and lowered guns (counted and played)."""
    locked = [r for r in rs if r["feedback"] and r["offset_deg"] in LOCK_OFFSETS]

    def total(key: str) -> int:
        return sum(v for r in rs for k, v in r["tally"].items()
                   if k == key or (key.endswith(":") and k.startswith(key)))

    return {"held": sum(r["held"] for r in rs), "wrong": total("held:wrong"),
            "n_lock": sum(r["held"] for r in locked),
            "ok_lock": sum(r["tally"].get("held:correct", 0) for r in locked),
            "sweeps": sum(r["sweeps"] for r in rs), "swept": total("sweep:seat"),
            "lowered": total("lower:seat"), "lowers": total("lower:")}


def _pool_cells(t: dict) -> tuple[str, str]:
    """A pool's wrong seats and its lock figure, each with its 95 % bound."""
    least = 1 - rate_above(t["n_lock"] - t["ok_lock"], t["n_lock"])
    lock = (f"{t['ok_lock'] / t['n_lock']:.2%} of {t['n_lock']} ({least:.2%})"
            if t["n_lock"] else "-")
    return f"{t['wrong']} ({rate_above(t['wrong'], t['held']):.2%})", lock


def summary(results: list[dict], seeds: int) -> str:
    """--grips figures pooled per grip, stance and table over the offsets (and the seeds
    given): held aims, wrong seats and their 95 % upper bound, correct with the lock at 1
    to 3° and its 95 % lower bound, the least correct case, sweeps and lowered guns
    counted, and the seating check's verdict for that grip; then per grip and stance
    over the tables of each verdict; then per stance over what the check accepts."""
    groups: dict[tuple, list[dict]] = {}
    for r in results:
        groups.setdefault((r["grip"], r["stance"], r["shape"], r["size_m"], r["seating"]),
                          []).append(r)
    rows = [f"| grip | players | table | check | held aims ({seeds} seeds) | wrong (95 % up to) "
            "| correct, lock, 1-3° (95 % at least) | least correct case | sweeps counted "
            "| lowered counted |", "|---|---|---|---|---:|---:|---:|---|---:|---:|"]
    by_verdict: dict[tuple, list[dict]] = {}
    for (grip, stance, shape, size, seating), rs in groups.items():
        t = _pool(rs)
        verdict = seating_verdict(shape, size, seating, grip)
        by_verdict.setdefault((grip, stance, verdict), []).extend(rs)
        worst = min(rs, key=lambda r: r["correct"])
        wrong, lock = _pool_cells(t)
        rows.append(
            f"| {grip} | {PEOPLE[stance]} | {shape} {size:.1f} m {seating} "
            f"| {verdict} | {t['held']} | {wrong} | {lock} "
            f"| {worst['correct']:.1%} ({worst['offset_deg']:g}°, lock "
            f"{'on' if worst['feedback'] else 'off'}) | {t['swept']} of {t['sweeps']} "
            f"| {t['lowered']} of {t['lowers']} |")
    rows += ["", f"| grip | players | check | tables | held aims ({seeds} seeds) "
             "| wrong (95 % up to) | correct, lock, 1-3° (95 % at least) | sweeps counted "
             "| lowered counted |", "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for (grip, stance, verdict), rs in sorted(by_verdict.items(), key=lambda kv: (
            list(GRIPS).index(kv[0][0]), STANCES.index(kv[0][1]),
            ("ok", "warn", "refuse").index(kv[0][2]))):
        t = _pool(rs)
        wrong, lock = _pool_cells(t)
        tables = len({(r["shape"], r["size_m"], r["seating"]) for r in rs})
        rows.append(f"| {grip} | {PEOPLE[stance]} | {verdict} | {tables} | {t['held']} "
                    f"| {wrong} | {lock} | {t['swept']} of {t['sweeps']} "
                    f"| {t['lowered']} of {t['lowers']} |")
    return "\n".join([*rows, "", accepted_totals(groups, seeds)])


def accepted_totals(groups: dict[tuple, list[dict]], seeds: int) -> str:
    """Per stance, every grip and table the seating check accepts ("ok") pooled: the
    targets' totals, and the fewest held aims a row of them holds."""
    pools: dict[str, list[list[dict]]] = {}
    for (grip, stance, shape, size, seating), rs in groups.items():
        if seating_verdict(shape, size, seating, grip) == "ok":
            pools.setdefault(stance, []).append(rs)
    rows = [f"| players | rows the check accepts | held aims ({seeds} seeds) | fewest in a row "
            "| wrong (95 % up to) | correct, lock, 1-3° (95 % at least) | sweeps counted "
            "| lowered counted |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for stance in sorted(pools, key=STANCES.index):
        t = _pool([r for rs in pools[stance] for r in rs])
        wrong, lock = _pool_cells(t)
        fewest = min(sum(r["held"] for r in rs) for rs in pools[stance])
        rows.append(f"| {PEOPLE[stance]} | {len(pools[stance])} | {t['held']} | {fewest} "
                    f"| {wrong} | {lock} | {t['swept']} of {t['sweeps']} "
                    f"| {t['lowered']} of {t['lowers']} |")
    return "\n".join(rows)
