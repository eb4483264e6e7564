"""Small inline SVG charts for the lab report: no script, no library, no network.

Every bar is a `<rect class="bar">` with its label and value in `data-` attributes and a
`<title>` (the browser shows it on hover); every interval is a `<line class="ci">`. The
report's test counts them against the data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

WIDTH = 640
ROW = 22  # height of a row of a horizontal bar chart
LABEL_W = 150  # room for the labels left of the bars
HIST_H = 180  # height of a histogram's plot


def percent(x: float) -> str:
    return f"{x:.1%}"


def rate_bars(name: str, rows: Sequence[dict[str, Any]], reference: float | None = None) -> str:
    """Horizontal bars of `rate` with their `low`–`high` interval; a dashed reference line
    (an even share) if given. `name` marks the chart (`data-chart`)."""
    top = max([r["high"] for r in rows] + [reference or 0, 0.01])
    scale = (WIDTH - LABEL_W - 70) / top
    height = ROW * len(rows) + 24
    parts = [_open(name, WIDTH, height, "rates")]
    for i, r in enumerate(rows):
        y = 4 + i * ROW
        tip = (f"{r['label']}: {percent(r['rate'])} (95 % interval {percent(r['low'])}"
               f" to {percent(r['high'])}), {r['n']} seats")
        parts += [
            _text(LABEL_W - 6, y + 14, r["label"], "end"),
            _rect(LABEL_W, y + 3, r["rate"] * scale, ROW - 8, r["label"], r["rate"], tip),
            f'<line class="ci" x1="{LABEL_W + r["low"] * scale:.1f}" y1="{y + ROW / 2:.1f}" '
            f'x2="{LABEL_W + r["high"] * scale:.1f}" y2="{y + ROW / 2:.1f}"/>',
            _text(LABEL_W + r["high"] * scale + 6, y + 14, percent(r["rate"])),
        ]
    if reference is not None:
        x = LABEL_W + reference * scale
        parts.append(f'<line class="reference" x1="{x:.1f}" y1="0" x2="{x:.1f}" '
                     f'y2="{height - 18}"><title>an even share: {percent(reference)}</title>'
                     '</line>')
        parts.append(_text(x, height - 4, f"even share {percent(reference)}", "middle"))
    parts.append("</svg>")
    return "\n".join(parts)


def histogram(name: str, bins: Sequence[dict[str, Any]], value: str,
              label: Callable[[dict[str, Any]], str], unit: str) -> str:
    """Vertical bars of `bin[value]`, labelled under each bar by `label(bin)`."""
    top = max([b[value] for b in bins] + [1])
    width = (WIDTH - 40) / max(len(bins), 1)
    parts = [_open(name, WIDTH, HIST_H + 40, "histogram")]
    every = max(1, len(bins) // 12)  # labels that fit under the bars
    for i, b in enumerate(bins):
        h = b[value] / top * HIST_H
        x = 30 + i * width
        tip = f"{label(b)}: {b[value]} {unit}"
        parts.append(_rect(x + 1, 10 + HIST_H - h, max(width - 2, 1), h, label(b), b[value], tip))
        if i % every == 0:
            parts.append(_text(x + width / 2, HIST_H + 26, label(b), "middle"))
    parts.append(_text(26, 20, str(top), "end"))
    parts.append("</svg>")
    return "\n".join(parts)


def _open(name: str, width: int, height: int, kind: str) -> str:
    return (f'<svg class="chart {kind}" data-chart="{name}" xmlns="http://www.w3.org/2000/svg" '
            f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img">')


def _rect(x: float, y: float, w: float, h: float, label: str, value: Any, tip: str) -> str:
    return (f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{max(w, 0):.1f}" '
            f'height="{max(h, 0):.1f}" data-label="{escape(str(label))}" '
            f'data-value="{value}"><title>{escape(tip)}</title></rect>')


def _text(x: float, y: float, text: str, anchor: str = "start") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}">{escape(text)}</text>'
