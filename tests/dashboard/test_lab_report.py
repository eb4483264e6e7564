"""The balance lab's report as people read it: a file opened in Chromium, every chart drawn
from the data written beside it, offline, without a console error."""

from __future__ import annotations

import json
import subprocess
import sys

CHARTS = {  # chart name -> the JSON rows it draws, one bar each
    "by_style": lambda d: d["by_style"],
    "by_seat": lambda d: d["by_seat"],
    "by_power": lambda d: d["by_power"],
    "endings": lambda d: d["decided_by"]["endings"],
    "wealth_survivors": lambda d: d["wealth"]["survivors"],
    "wealth_winners": lambda d: d["wealth"]["winners"],
    "deaths_per_game": lambda d: d["deaths"]["per_game"],
    "deaths_by_round": lambda d: d["deaths"]["by_round"],
    "deaths_by_power": lambda d: d["deaths"]["by_power"],
    "godfather_tokens": lambda d: d["godfather"]["by_tokens"],
    "godfather_rounds": lambda d: d["godfather"]["by_rounds_as_godfather"],
}
RATES = ("by_style", "by_seat", "by_power", "deaths_by_power", "godfather_tokens",
         "godfather_rounds")


def test_the_lab_report_draws_every_figure_of_its_data(browser, tmp_path):
    report = tmp_path / "lab.html"
    run = subprocess.run(
        [sys.executable, "-m", "companion.cli", "simulate", "--games", "40", "--players", "5",
         "--powers", "--bots", "random,cautious,aggressive,greedy,vengeful", "--seed", "2",
         "--report", str(report)], capture_output=True, text=True, timeout=110, check=False)
    assert run.returncode == 0, run.stderr
    data = json.loads(report.with_suffix(".json").read_text())
    html = report.read_text()
    assert "<script" not in html and "http://" not in html.replace(
        "http://www.w3.org/2000/svg", "") and "https://" not in html

    context = browser.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"{m.type}: {m.text}")
            if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
    page.on("request", lambda r: problems.append(f"request: {r.url}")
            if not r.url.startswith("file://") else None)
    try:
        page.goto(report.as_uri())
        assert page.title().startswith("Cash 'n Guns balance lab: 40 games of 5 players")
        for name, rows_of in CHARTS.items():
            rows = rows_of(data)
            chart = page.locator(f'svg[data-chart="{name}"]')
            assert chart.count() == 1, name
            bars = chart.locator("rect.bar")
            assert bars.count() == len(rows) > 0, name
            if name in RATES:
                assert chart.locator("line.ci").count() == len(rows)
                shown = [float(v) for v in bars.evaluate_all(
                    "bars => bars.map(b => b.dataset.value)")]
                assert shown == [r["rate"] for r in rows], name
                widths = bars.evaluate_all("bars => bars.map(b => b.getBBox().width)")
                top = max(range(len(rows)), key=lambda i: rows[i]["rate"])
                assert max(widths) == widths[top] > 0, name
        by_seat = page.locator('svg[data-chart="by_seat"] rect.bar')
        assert by_seat.evaluate_all("bars => bars.map(b => b.dataset.label)") == [
            "1", "2", "3", "4", "5"]
        per_game = data["deaths"]["per_game"]
        heights = page.locator('svg[data-chart="deaths_per_game"] rect.bar').evaluate_all(
            "bars => bars.map(b => b.getBBox().height)")
        most = max(range(len(per_game)), key=lambda i: per_game[i]["games"])
        assert max(heights) == heights[most] > 0
        assert page.get_by_text("decided the game").count() == 1
    finally:
        context.close()
    assert not problems, problems
