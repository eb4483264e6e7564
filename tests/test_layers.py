"""The layers docs/ARCHITECTURE.md draws are the layers the code has: its table is read
from the doc, and every import in companion/ is checked against it (issue 23)."""

from __future__ import annotations

import re

from importgraph import ROOT, modules
from importgraph import imports as import_graph

DOC = ROOT / "docs" / "ARCHITECTURE.md"
NAME = re.compile(r"`([a-z_.]+)`")


def read_layers() -> dict[str, tuple[list[str], list[str]]]:
    """{layer: (the modules and packages it holds, the layers it may import)}, in the
    doc's order (the lowest first), from the table under "## The layers"; `all below`
    names every layer above the row."""
    text = DOC.read_text()
    section = text.split("\n## The layers\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")][2:]
    layers: dict[str, tuple[list[str], list[str]]] = {}
    for row in rows:
        name, holds, may = (cell.strip() for cell in row.strip("|").split("|"))
        below = list(layers) if may == "all below" else [] if may == "—" else may.split()
        layers[name] = (NAME.findall(holds), below)
    return layers


def layer_of(module: str, layers: dict[str, tuple[list[str], list[str]]]) -> str | None:
    """The row naming `module` or its nearest package."""
    best, length = None, -1
    for name, (holds, _) in layers.items():
        for held in holds:
            if (module == held or module.startswith(held + ".")) and len(held) > length:
                best, length = name, len(held)
    return best


def crossings(graph: dict[str, dict[str, int]],
              layers: dict[str, tuple[list[str], list[str]]]) -> list[str]:
    """Every import the table does not allow, as `module:line imports target (a -> b)`."""
    out = []
    for module, targets in sorted(graph.items()):
        mine = layer_of(module, layers)
        allowed = {mine, *layers[mine][1]} if mine else set()
        for target, line in sorted(targets.items()):
            theirs = layer_of(target, layers)
            if theirs not in allowed:
                out.append(f"{module}:{line} imports {target} ({mine} -> {theirs})")
    return out


def test_the_table_is_read_and_layered_bottom_up():
    layers = read_layers()
    assert {"rules", "referee", "sensors", "bus", "dashboard", "shell"} <= set(layers)
    assert layers["rules"][1] == [], "the engine imports nothing of the companion"
    seen: set[str] = set()
    for name, (holds, may) in layers.items():
        assert holds, f"layer {name} holds nothing"
        upward = [m for m in may if m not in seen]
        assert not upward, f"layer {name} may import {upward}: not below it in the table"
        seen.add(name)


def test_every_module_has_a_layer():
    layers = read_layers()
    lost = [m for m in modules() if layer_of(m, layers) is None]
    assert not lost, f"modules in no layer of docs/ARCHITECTURE.md: {lost}"


def test_the_check_sees_an_import_reaching_back_up():
    layers = read_layers()
    graph = {"companion.rules.steps": {"companion.referee.table": 3},
             "companion.referee.table": {"companion.rules.steps": 7}}
    assert crossings(graph, layers) == [
        "companion.rules.steps:3 imports companion.referee.table (rules -> referee)"]


def test_every_import_in_the_companion_keeps_to_the_layers():
    found = crossings(import_graph(), read_layers())
    assert not found, "imports the layers of docs/ARCHITECTURE.md do not allow:\n" + \
        "\n".join(found)
