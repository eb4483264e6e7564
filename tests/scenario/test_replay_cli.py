"""`companion replay` as a user runs it: the shared examples and the file errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.scenario import load_scenario
from companion.scenario.expect import mismatches

ROOT = Path(__file__).resolve().parents[2]
ORIGINALS = ROOT.parent / "shared" / "scenarios"  # beside the repository, where it is
SHARED = ROOT / "scenarios" / "examples"  # their copies, so that any clone runs them
OURS = ROOT / "scenarios"
EXAMPLES = sorted(SHARED.glob("*.yaml")) + sorted(OURS.glob("*.yaml"))


def replay(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(path), *extra],
                          capture_output=True, text=True, timeout=60, check=False)


def test_the_shared_examples_are_there():
    assert len(list(SHARED.glob("*.yaml"))) >= 4, f"no scenarios in {SHARED}"


@pytest.mark.skipif(not ORIGINALS.is_dir(), reason=f"no originals at {ORIGINALS}")
def test_the_copied_examples_and_format_are_the_shared_ones():
    originals = {f.name: f.read_bytes() for f in ORIGINALS.glob("*.yaml")}
    assert {f.name: f.read_bytes() for f in SHARED.glob("*.yaml")} == originals
    spec = ORIGINALS.parent / "spec" / "scenario-format.md"
    assert (ROOT / "docs" / "scenario-format.md").read_bytes() == spec.read_bytes()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_meets_its_expectations(path):
    run = replay(path)
    scenario = load_scenario(path)
    output = json.loads(run.stdout)
    assert mismatches(output, run.returncode, scenario.expect) == []
    if run.returncode == 2:
        n = output["error"]["action"]
        assert f"action {n} " in run.stderr and "refused" in run.stderr
    else:
        assert run.stderr == ""


def test_check_flag_reports_a_failed_expectation(tmp_path):
    text = (SHARED / "e03_end_scoring.yaml").read_text().replace("winners: [Ana]", "winners: [Bob]")
    f = tmp_path / "wrong.yaml"
    f.write_text(text)
    run = replay(f, "--check")
    assert run.returncode == 1
    assert "expect winners: got ['Ana'], expected ['Bob']" in run.stderr


def test_refused_action_prints_the_state_before_it():
    run = replay(SHARED / "e04_out_of_step_error.yaml")
    assert run.returncode == 2
    out = json.loads(run.stdout)
    assert out["phase"] == "holdup" and out["error"]["action"] == 5
    assert "courage" in out["error"]["message"] and "hold-up" in out["error"]["message"]
    assert "e04_out_of_step_error.yaml:17: action 5 {type: courage, player: Ana" in run.stderr


BAD_FILES = [
    ("players: [Ana, Bob, Cyd]\nactions: []\n", ":1: players: must list 4 to 8 player names"),
    ("players: [Ana, Bob, Cyd, Dee]\nactions:\n  - {type: dance, player: Ana}\n",
     ":3: actions[0].type: unknown action type 'dance'"),
    ("players: [Ana, Bob, Cyd, Dee]\nactions:\n  - {type: choose, player: Zed, card: bang}\n",
     ":3: actions[0].player: unknown player 'Zed'"),
    ("players: [Ana, Bob, Cyd, Dee]\nactions:\n  - {type: choose, player: Ana, card: ace}\n",
     ":3: actions[0].card: unknown bullet card 'ace'"),
    ("players: [Ana, Bob, Cyd, Dee]\nactions:\n  - {type: choose, player: Ana}\n",
     ":3: actions[0]: a choose action needs the field 'card'"),
    ("players: [Ana, Bob, Cyd, Dee]\nactions:\n  - {type: aim, player: Ana, target: Bob, x: 1}\n",
     ":3: actions[0].x: unknown field"),
    ("players: [Ana, Bob, Cyd, Dee]\npowers: {Ana: kid, Bob: kid}\nactions: []\n",
     ":2: powers.Bob: the power 'kid' is dealt twice"),
    ("players: [Ana, Bob, Cyd, Dee]\npowers: {Ana: wizard}\nactions: []\n",
     ":2: powers.Ana: unknown power 'wizard'"),
    ("players: [Ana, Bob, Cyd, Dee]\nloot:\n  - [bill5000]\nactions: []\n",
     ":2: loot: must hold exactly 8 piles"),
    ("players: [Ana, Bob, Cyd, Dee]\nstart: {round: 8}\nloot:\n  - [bill5000, gold]\nactions: []\n",
     ":4: loot[0][1]: unknown loot id 'gold'"),
    ("players: [Ana, Bob, Cyd, Dee]\ncolour: red\nactions: []\n", ":2: colour: unknown field"),
    ("players: [Ana, Bob, Cyd, Dee]\nactions: [\n", ": not valid YAML"),
    ("players: [Ana, Bob, Cyd, Dee]\nseed: seven\nactions: []\n",
     ":2: seed: must be a whole number"),
    ("players: [Ana, Bob, Cyd, Dee]\n", "the field 'actions' is missing"),
    ("players: [Ana, Bob, Cyd, Dee]\nstart:\n  players:\n    Ana: {wounds: 3}\nactions: []\n",
     ":4: start.players.Ana.wounds: a living player has fewer than 3 wounds"),
    ("players: [Ana, Bob, Cyd, Dee]\ncards: physical\n"
     "actions:\n  - {type: choose, player: Ana, card: bang}\n",
     ":4: actions[0].card: cards are physical"),
]


@pytest.mark.parametrize("text,message", BAD_FILES, ids=[m for _, m in BAD_FILES])
def test_bad_file_names_line_and_field_and_prints_nothing(tmp_path, text, message):
    f = tmp_path / "bad.yaml"
    f.write_text(text)
    run = replay(f)
    assert run.returncode == 2
    assert run.stdout == ""
    assert message in run.stderr
    assert str(f) in run.stderr


def test_missing_file(tmp_path):
    run = replay(tmp_path / "nope.yaml")
    assert run.returncode == 2 and run.stdout == "" and "cannot read the file" in run.stderr
