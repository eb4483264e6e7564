"""The plain reader (`companion.yaml_subset`) reads a text exactly as PyYAML does, lines
included, or leaves it to PyYAML: over every scenario and config file, and over generated
and mutated documents full of what YAML 1.1 reads in surprising ways."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import yaml_subset
from companion.pyyaml_loaders import _Loader

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted(ROOT.glob("scenarios/**/*.yaml"))
sys.path.insert(0, str(ROOT / "bench"))
from startup import whole_game  # noqa: E402  (the bench's whole 8-player game)


def shape(data: Any) -> Any:
    """The data with its types, and the line of every mapping, list, key and item."""
    if isinstance(data, dict):
        return ("map", data.line, data.lines,
                [(shape(k), shape(v)) for k, v in data.items()])
    if isinstance(data, list):
        return ("list", data.line, data.lines, [shape(v) for v in data])
    return (type(data).__name__, data)


def read_alike(text: str) -> bool:
    """True if the plain reader took the text; it must then read it as PyYAML does (a
    text PyYAML refuses, it must leave to PyYAML)."""
    fast = yaml_subset.parse(text)
    if fast is None:
        return False
    assert shape(fast) == shape(yaml.load(text, Loader=_Loader)), text
    return True


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_every_scenario_is_read_by_the_plain_reader_as_pyyaml_reads_it(path):
    assert read_alike(path.read_text())


def test_a_whole_game_is_read_by_the_plain_reader_as_pyyaml_reads_it(tmp_path):
    assert read_alike(whole_game(tmp_path / "game.yaml").read_text())


@pytest.mark.parametrize("path", sorted(ROOT.glob("config/*.yaml")), ids=lambda p: p.name)
def test_config_files_are_read_alike_or_left_to_pyyaml(path):
    read_alike(path.read_text())


TRICKY = ["yes", "No", "on", "OFF", "y", "n", "~", "null", "Null", "NULL", "nULL", "true",
          "True", "tRUE", "0", "-0", "+1", "7", "-12", "007", "1_000", "0o12", "012", "0x1f",
          "0b101", "1e3", "1.5", "1.", ".inf", "-.inf", ".NaN", "190:20:30", "2001-12-14",
          "'q'", "'it''s'", '"esc\\n"', '"a\\"b"', '""', "&x a", "*x", "!!str a", "|", ">",
          "<<", "=", "a b", "a.b", "a.", "_", "a#b", "a:b", "é", "9" * 20, "x" * 200]
KEYS = ["Ana", "bang", "players.Ana.wounds", "a", "first_aid", "bill5000"]
WORDS = [*KEYS, "-3", "12", "0"]


@st.composite
def subset_like(draw: Any, indent: int = 0, depth: int = 0) -> list[str]:
    """Lines of a document close to the subset: block mappings and lists at random
    indents, one-line flow collections, comments, and scalars mostly plain, some tricky."""

    def scalar(plain: list[str] = WORDS) -> str:
        return draw(st.sampled_from(TRICKY if draw(st.integers(0, 24)) == 0 else plain))

    def flow(d: int) -> str:
        if d > 2 or draw(st.integers(0, 2)):
            return scalar()
        items = [flow(d + 1) for _ in range(draw(st.integers(0, 3)))]
        sep = draw(st.sampled_from([", ", ", ", ",", " , ", ",  "]))
        pad = draw(st.sampled_from(["", " ", "  "]))
        if draw(st.booleans()):
            return "[" + pad + sep.join(items) + pad + "]"
        colon = draw(st.sampled_from([": "] * 5 + [" : ", ":  ", ":"]))
        return "{" + pad + sep.join(f"{scalar(KEYS)}{colon}{v}" for v in items) + pad + "}"

    is_list = depth > 0 and draw(st.integers(0, 2)) == 0
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.integers(0, 5)) == 0:
            lines.append(" " * draw(st.integers(0, 6)) + draw(st.sampled_from(["# c", "", "#"])))
        lead = " " * indent + (draw(st.sampled_from(["- ", "-  "])) if is_list else "")
        after = draw(st.sampled_from(["", "", "", "", "  # note", " ", "#x"]))
        if is_list and draw(st.booleans()):
            lines.append(lead + flow(0) + after)
        elif depth < 3 and draw(st.integers(0, 2)) == 0:
            lines.append(lead + scalar(KEYS) + ":" + after)
            deeper = len(lead) + draw(st.sampled_from([0, 1, 2, 2, 4]))
            lines += draw(subset_like(deeper, depth + 1))
        else:
            lines.append(lead + scalar(KEYS) + ": " + flow(0) + after)
    return lines


@settings(max_examples=400, deadline=None)
@given(lines=subset_like(), cut=st.integers(0, 3))
def test_documents_near_the_subset_are_read_alike_or_left_to_pyyaml(lines, cut):
    read_alike("\n".join(lines) + "\n" * cut)


MUTATIONS = ["\t", "\ufeff", "\r", "\x85", "\u2028", " ", "  ", "#", " #", ":", ": ", "-",
             "- ", "[", "]", "{", "}", ",", "'", '"', "&a ", "*a", "!!str ", "|", "---\n",
             "...\n", "%YAML 1.1\n", "?", "\n", "\n  ", "~", "0", "_", "1_0", "yes", "é"]


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 2**32), count=st.integers(1, 3))
def test_mutated_scenarios_are_read_alike_or_left_to_pyyaml(seed, count):
    rnd = random.Random(seed)
    text = rnd.choice(SCENARIOS).read_text()
    for _ in range(count):
        at = rnd.randrange(len(text) + 1)
        cut = rnd.choice([0, 0, 1, 2])
        text = text[:at] + rnd.choice(MUTATIONS) + text[at + cut:]
    try:
        read_alike(text)
    except yaml.YAMLError:
        pytest.fail(f"the plain reader took a text PyYAML refuses:\n{text}")


scalars = st.one_of(st.integers(-10**20, 10**20), st.booleans(), st.none(),
                    st.text(min_size=0, max_size=8), st.sampled_from(TRICKY + WORDS),
                    st.floats(allow_nan=False))
trees = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(TRICKY + KEYS), inner,
                                                 max_size=4)), max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(data=st.dictionaries(st.sampled_from(KEYS), trees, min_size=1, max_size=4),
       flow=st.sampled_from([None, True, False]), indent=st.sampled_from([2, 4]))
def test_dumped_documents_are_read_alike_or_left_to_pyyaml(data, flow, indent):
    read_alike(yaml.safe_dump(data, default_flow_style=flow, indent=indent,
                              allow_unicode=True, width=10**6))


def test_what_the_subset_leaves_to_pyyaml():
    for text in ["a: 'x'\n", "a: 1_000\n", "a: x\n\tb: 1\n", "\ufeffa: 1\n", "a: 1\na: 2\n",
                 "a: b\n  c\n", "--- \na: 1\n", "a: [1,\n  2]\n", "yes: 1\n", "- a\n", "",
                 "a: &x 1\nb: *x\n", "a: {b}\n", "a: [b: c]\n", "a: 0x1f\n", "a: 1e3\n"]:
        assert yaml_subset.parse(text) is None, text
