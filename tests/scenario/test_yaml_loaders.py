"""libyaml reads files faster; what a file means, and the line of each of its parts, and
what is said about a wrong one, are those of PyYAML's own parser (issue 13)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import pyyaml_loaders
from companion.yamlfile import YamlError, parse_yaml

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted([*ROOT.glob("scenarios/**/*.yaml"), *ROOT.glob("config/*.yaml")])


def shape(data: Any) -> Any:
    """The data with the line of every mapping, list, key and item."""
    if isinstance(data, dict):
        return ("map", getattr(data, "line", None), getattr(data, "lines", None),
                {k: shape(v) for k, v in data.items()})
    if isinstance(data, list):
        return ("list", getattr(data, "line", None), getattr(data, "lines", None),
                [shape(v) for v in data])
    return (type(data).__name__, data)


def pure(text: str) -> Any:
    return yaml.load(text, Loader=pyyaml_loaders._Loader)


def test_libyaml_is_used_where_pyyaml_has_it():
    assert yaml.__with_libyaml__, "PyYAML without libyaml: files are read the slow way"
    assert pyyaml_loaders._LOADERS[0] is not pyyaml_loaders._Loader


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_of_the_repository_reads_the_same(path):
    text = path.read_text()
    assert shape(parse_yaml(text, str(path))) == shape(pure(text))


scalars = st.one_of(st.integers(-10**6, 10**6), st.booleans(), st.none(),
                    st.text(min_size=1, max_size=12),
                    st.sampled_from(["bang", "yes", "off", "0x1f", "1_000", "~", "007", "1e3"]))
trees = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(min_size=1, max_size=8), inner,
                                                 max_size=4)), max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(data=trees, flow=st.booleans())
def test_any_document_reads_the_same_with_its_lines(data, flow):
    text = yaml.safe_dump({"top": data, "after": [1, 2]}, default_flow_style=flow,
                          allow_unicode=True)
    assert shape(parse_yaml(text, "t.yaml")) == shape(pure(text))


BAD = ["players: [Ana, Bob\n", "a: 1\na: 2\n", "a: [1, 2]]\n", "{x: 1}: 2\n", "\tkey: 1\n",
       "a: &x [*y]\n", "'unclosed\n", "a: 1\n b: 2\n", "- 1\nkey: 2\n", "9" * 5000 + "\n",
       "[" * 3000 + "]" * 3000]


@pytest.mark.parametrize("text", BAD, ids=range(len(BAD)))
def test_a_wrong_file_is_told_as_pyyaml_tells_it(text):
    with pytest.raises(YamlError) as fast:
        parse_yaml(text, "bad.yaml")
    saved = pyyaml_loaders._LOADERS[:]
    pyyaml_loaders._LOADERS[:] = [pyyaml_loaders._Loader]
    try:
        with pytest.raises(YamlError) as slow:
            parse_yaml(text, "bad.yaml")
    finally:
        pyyaml_loaders._LOADERS[:] = saved
    assert str(fast.value) == str(slow.value)
    assert fast.value.line == slow.value.line
