"""The companion's modules import each other without a cycle (issue 23), and the cycle
finder itself finds one where there is one."""

from __future__ import annotations

import importgraph  # (tests/ is on the path, as for tests/waiting.py)
from importgraph import cycles, imports


def test_the_finder_finds_a_cycle_and_only_a_cycle():
    graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1, "d": 1}, "d": {}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b": 1}, "b": {}}) == []


def test_the_graph_sees_late_and_from_package_imports():
    graph = imports()
    assert "companion.yaml_subset" in graph["companion.yamlfile"], \
        "yamlfile's import inside a function (from companion import yaml_subset)"
    assert "companion.schema" in graph["companion.sensors.codec"]
    assert "companion.__init__" in graph["companion.bus.homeassistant"], "its __version__"


def test_no_module_of_the_companion_imports_itself_back():
    found = cycles(imports())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_sensor_bridge_is_a_client_of_the_tables_broker_not_its_owner():
    """The runner starts the broker with what the referee and the league need of it; the
    bridge only connects (issue 23)."""
    bridge = imports()["companion.sensors.bridge"]
    assert "companion.bus.broker" not in bridge
    assert not [m for m in bridge if m.startswith(("companion.league", "companion.referee"))]
    assert '"referee"' not in (importgraph.PACKAGE / "sensors" / "bridge.py").read_text()
