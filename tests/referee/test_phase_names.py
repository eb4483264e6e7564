"""Phase names are compared only inside companion/rules (issue 23): everywhere else asks
the rules a question (`phases.aims_live(state)`, `phases.reads_postures(step)`, ...)."""

from __future__ import annotations

import ast
from pathlib import Path

from companion.rules.state import PHASES

ROOT = Path(__file__).resolve().parents[2] / "companion"
NAMES = frozenset(("LOOT", "CHOOSE", "HOLDUP", "PRIVILEGE", "COURAGE", "REVEAL", "SPLIT",
                   "OVER", "PHASES"))
FIELDS = frozenset(("phase", "step"))  # where a game's or a countdown's phase is kept


def _phase_like(node: ast.expr) -> bool:
    """An expression holding a phase's name: a `phase`/`step` field or key, a phase
    constant, the rules' `countdown_step(...)`, or a phase's name written out."""
    if isinstance(node, ast.Attribute):
        return node.attr in FIELDS
    if isinstance(node, ast.Subscript):
        key = node.slice
        return isinstance(key, ast.Constant) and key.value in FIELDS
    if isinstance(node, ast.Name):
        return node.id in NAMES
    if isinstance(node, ast.Call):
        return getattr(node.func, "id", getattr(node.func, "attr", None)) == "countdown_step"
    return False


def problems(source: str, where: str) -> list[str]:
    """Each comparison of a phase and each phase constant imported, as `where:line`."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_phase_like(side) for side in sides):
                out.append(f"{where}:{node.lineno} compares a phase")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "companion.rules"):
            out += [f"{where}:{node.lineno} imports {a.name}" for a in node.names
                    if a.name in NAMES]
    return out


def test_no_phase_is_compared_outside_the_rules() -> None:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        if ROOT / "rules" not in path.parents:
            found += problems(path.read_text(), str(path.relative_to(ROOT.parent)))
    assert found == []


def test_the_check_sees_each_way_of_comparing_a_phase() -> None:
    samples = ['s.phase == "holdup"', 'stage.step in ("courage",)', 'r["step"] != x',
               "countdown_step(s) == HOLDUP", "from companion.rules.state import SPLIT"]
    for sample in samples:
        assert problems(sample, "x.py"), sample
    assert problems('a["type"] == "courage"', "x.py") == []  # an action's kind, not a phase
    assert set(PHASES) >= {"holdup", "courage", "split"}
