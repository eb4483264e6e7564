"""A replay's plainly spelled command line is read without argparse, exactly as argparse
reads it; any other is left to argparse (its help, its abbreviations, its refusals)."""

from __future__ import annotations

import contextlib
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import cli
from companion.scenario.replay_cmd import plain_args

WORDS = ["game.yaml", "--check", "--indent", "2", "007", "-1", "²", "--indent=2", "--ind",
         "--che", "-h", "--help", "--", "-", "", "replay", "x y.yaml", "--bogus", "3"]


def by_argparse(words: list[str]) -> dict[str, object] | None:
    """What argparse makes of `companion replay WORDS`, or None if it refuses them."""
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            args = cli.parse(["replay", *words])
        except SystemExit:
            return None
    return {"file": args.file, "indent": args.indent, "check": args.check}


@settings(max_examples=500, deadline=None)
@given(words=st.lists(st.sampled_from(WORDS), max_size=5))
def test_a_plain_command_line_reads_as_argparse_reads_it(words):
    plain = plain_args(words)
    if plain is not None:
        assert vars(plain) == by_argparse(words), words


@pytest.mark.parametrize("words", [["g.yaml"], ["g.yaml", "--check"],
                                   ["--indent", "2", "g.yaml"], ["g.yaml", "--indent", "10"]])
def test_the_usual_spellings_are_read_without_argparse(words):
    assert plain_args(words) is not None


@pytest.mark.parametrize("words", [["--help"], ["g.yaml", "--indent=2"], ["g.yaml", "--ch"],
                                   [], ["a.yaml", "b.yaml"], ["g.yaml", "--indent", "x"]])
def test_help_abbreviations_and_mistakes_are_left_to_argparse(words):
    assert plain_args(words) is None
