"""Each config default is written once, in its settings class: the docs cite the same
values, and the example configs do not write a default out again (issue 23)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from companion import config
from companion.bus.settings import MqttSettings
from companion.bus.topics import DISCOVERY_PREFIX
from companion.dashboard.settings import DashboardSettings
from companion.league.settings import LeagueSettings
from companion.referee.readings import SEES
from companion.referee.settings import RefereeSettings
from companion.sensors.settings import Filters, SimSettings
from companion.yamlfile import parse_yaml

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def yaml_block(doc: str, after: str) -> str:
    """The first ```yaml block of a doc after the heading `after`."""
    text = (DOCS / doc).read_text().split(after, 1)[1]
    return text.split("```yaml\n", 1)[1].split("```", 1)[0]


def test_the_sensor_docs_table_gives_the_filters_and_slots_defaults():
    text = (DOCS / "SENSORS.md").read_text()
    cited = dict(re.findall(r"^\| `(\w+)` \| (\d+) \|", text, re.MULTILINE))
    d, sim = Filters(), SimSettings()
    assert {k: float(v) for k, v in cited.items()} == {
        "hold_ms": d.hold_ms, "debounce_ms": d.debounce_ms,
        "board_silence_ms": d.board_silence_ms, "slot_us": sim.slot_us}


def test_the_config_references_in_the_docs_write_the_defaults():
    sensors = config.parse(yaml_block("SENSORS.md", "## Configuration reference"), "SENSORS.md")
    assert sensors.sensors.filters == Filters()
    assert sensors.mqtt.port == MqttSettings().port
    dashboard = config.parse(yaml_block("DASHBOARD.md", "## Configuration: `dashboard:`"),
                             "DASHBOARD.md")
    assert dashboard["dashboard"] == DashboardSettings()


def test_the_mqtt_docs_cite_the_brokers_defaults():
    text = " ".join((DOCS / "MQTT.md").read_text().split())
    d = MqttSettings()
    port = re.search(r"`127\.0\.0\.1:<mqtt\.embedded_port>` \((\d+) by default\)", text)
    state_dir = re.search(r"`mqtt\.state_dir` \(`([^`]+)/` by default", text)
    prefix = re.search(r"`referee\.discovery_prefix`, `(\w+)` by default", text)
    assert port and state_dir and prefix, "the sentences citing the defaults moved"
    assert int(port[1]) == d.port and Path(state_dir[1]) == d.state_dir
    assert prefix[1] == DISCOVERY_PREFIX == RefereeSettings().discovery_prefix
    assert "- QoS 1, so messages queued" in text and d.qos == 1


def test_the_calibration_docs_cite_the_share_a_gun_must_see():
    text = " ".join((DOCS / "DASHBOARD.md").read_text().split())
    seen = re.search(r"at least (\d+) % of the last second's looks", text)
    assert seen and int(seen[1]) / 100 == SEES


SECTIONS = {"mqtt": (MqttSettings(), {"embedded_port": "port"}),
            "dashboard": (DashboardSettings(), {}),
            "league": (LeagueSettings(), {})}


@pytest.mark.parametrize("example", sorted(p.name for p in (ROOT / "config").glob("*.yaml")))
def test_an_example_config_writes_no_default_out_again(example):
    data = parse_yaml((ROOT / "config" / example).read_text(), example) or {}
    again = []
    for section, (defaults, renamed) in SECTIONS.items():
        for key, value in (data.get(section) or {}).items():
            field = renamed.get(key, key)
            if field in {f.name for f in dataclasses.fields(defaults)} and \
                    config.parse(f"{section}: {{{key}: {value!r}}}", example)[section] \
                    == defaults:
                again.append(f"{section}.{key}")
    filters = ((data.get("sensors") or {}).get("filters") or {})
    again += [f"sensors.filters.{k}" for k, v in filters.items()
              if getattr(Filters(), k, None) == v]
    assert not again, f"{example} writes defaults out again: {again}"


def test_the_dashboard_docs_name_the_table_grips_and_their_default():
    from companion.dashboard.settings import TableTop
    from companion.tablesim.geometry import GRIPS

    text = " ".join((DOCS / "DASHBOARD.md").read_text().split())
    said = re.search(r"and `grip`, how the players hold their guns: (.*?) \(the grips of", text)
    assert said, "the sentence naming the grips moved"
    assert re.findall(r"`([^`]+)`", said[1]) == list(GRIPS)
    assert "left out (null) the seating check judges a seating by the worst of them" in text
    assert TableTop("round", 1.2).grip is None
    example = yaml_block("DASHBOARD.md", "## Configuration: `dashboard:`")
    table = re.search(r"# (table: \{shape: rect.*\})", example)
    assert table and config.parse(f"dashboard: {{{table[1]}}}", "DASHBOARD.md")[
        "dashboard"].table.grip == "arm extended"
