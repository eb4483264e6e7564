"""Every MQTT topic name comes from companion/bus/topics.py: no other module of the
companion writes one out (issue 23), and the ACL written from it is Mosquitto's shape."""

from __future__ import annotations

import ast
from pathlib import Path

from companion.bus.broker import acl_text
from companion.bus.topics import DISCOVERY_PREFIX, ROOT, Topics

PACKAGE = Path(__file__).resolve().parents[2] / "companion"
# What only a topic name holds: the root with its separator, the discovery prefix, and
# the leaves of a table's tree.
MARKS = (f"{ROOT}/", DISCOVERY_PREFIX, "/+/", "/#", "game/state", "game/event",
         "referee/status", "league/result", "league/ack", "bridge/state", "/posture",
         "hub/seen")


def literals(tree: ast.AST) -> list[tuple[int, str]]:
    """Every string literal, an f-string's fixed parts too, with its line (docstrings left
    out: they may name a topic to say what it is for)."""
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef)
            and n.body and isinstance(n.body[0], ast.Expr)}
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def test_no_module_but_topics_writes_a_topic_name():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "topics.py" and path.parent.name == "bus":
            continue
        for line, text in literals(ast.parse(path.read_text())):
            if any(mark in text.replace(f"/{ROOT}/", "/") for mark in MARKS):  # not a path
                found.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {text!r}")
    assert not found, "topic names written outside companion/bus/topics.py:\n" + \
        "\n".join(found)


def test_the_acl_names_the_tables_own_topics_and_the_discovery_of_its_seats():
    t = Topics("t1")
    acl = acl_text("t1", simulated=True)
    assert "topic readwrite cashnguns/t1/gun/#" in acl.split("user referee")[0]  # sensors
    assert f"topic write {t.sim_command}" in acl.split("user sim")[1]
    assert "topic readwrite homeassistant/+/cashnguns_t1_seat8/#" in acl  # old, to clear
    assert "topic readwrite homeassistant/device/cashnguns_t1/#" in acl
    assert "topic read homeassistant/status" in acl.split("user referee")[1]  # HA's birth
    assert "seat9" not in acl and "cashnguns/t2" not in acl
    assert "topic write" not in acl_text("t1", simulated=False)  # no simulator to command
