"""Home Assistant's own code judges the table's discovery message and the blueprints: its
MQTT discovery parser and platform schemas, its template engine on a real game's states,
its blueprint schema and its automation validation (homeassistant/checker/check.py, run
in a virtual environment of its own: Home Assistant needs Python 3.13).

The environment is made once per version of homeassistant/checker/requirements.txt, under
the user's cache folder (`./dev test` starts it in the background and this test waits for
it; 6 min here, pip's cache warm,
docs/MQTT.md). Without a Python 3.13 the test fails with a sentence saying so; `-m "not
homeassistant"` leaves it out on purpose."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from ha_states import expected_values, game_states

from companion.bus.homeassistant import device_discovery
from companion.bus.topics import Topics

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "homeassistant" / "checker"
BLUEPRINTS = sorted((ROOT / "homeassistant" / "blueprints").rglob("*.yaml"))

# the first run makes the environment (6 min measured here, pip's cache warm): more than
# the suite's 300 s safety net
pytestmark = [pytest.mark.homeassistant, pytest.mark.timeout(1800)]


@pytest.fixture(scope="module")
def judge(tmp_path_factory):
    """`judge(devices, states, blueprints)`: Home Assistant's verdicts (check.py)."""
    made = subprocess.run(["bash", str(CHECKER / "install.sh")], capture_output=True,
                          text=True, timeout=1800)
    if made.returncode != 0:
        pytest.fail(f"Home Assistant's environment could not be made: {made.stderr.strip()}")
    python = Path(made.stdout.strip()) / "bin" / "python"

    def run(devices: list[dict], states: list[dict], blueprints: list[Path]) -> dict:
        request = {"devices": devices, "states": states,
                   "blueprints": [str(p) for p in blueprints]}
        done = subprocess.run([str(python), str(CHECKER / "check.py")], input=json.dumps(request),
                              capture_output=True, text=True, timeout=240,
                              cwd=tmp_path_factory.mktemp("ha"))
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(done.stdout)

    return run


def test_home_assistant_takes_the_discovery_and_every_blueprint_without_a_word(judge,
                                                                             tmp_path):
    topics = Topics("t")
    config = device_discovery(topics)
    broken = json.loads(json.dumps(config))
    del broken["cmps"]["phase"]["p"]  # a component without its platform: refused
    broken["cmps"]["round"]["state_class"] = "sideways"
    wrong = tmp_path / "wrong.yaml"  # a blueprint with a misspelt action: refused
    wrong.write_text(BLUEPRINTS[0].read_text().replace("action: light.turn_on",
                                                       "action: light turn on"))
    states = list(game_states())
    verdict = judge([{"payload": json.dumps(config), "object_id": topics.device_id},
                     {"payload": json.dumps(broken), "object_id": topics.device_id}],
                    states, [*BLUEPRINTS, wrong])
    good, bad = verdict["devices"]
    assert good["warnings"] == [] and verdict["warnings"] == []
    assert good["parsed"] and good["invalid"] == {} and good["dropped"] == {}
    assert good["platforms"] == {key: c["p"] for key, c in config["cmps"].items()}
    for state, rendered in zip(states, good["rendered"], strict=True):
        assert rendered == expected_values(state)
    # the judge can say no: the broken message is refused, with Home Assistant's warning
    assert not bad["parsed"] and any("Invalid MQTT device discovery payload" in w
                                     for w in bad["warnings"])
    assert len(BLUEPRINTS) >= 3
    assert verdict["blueprints"].pop(str(wrong)) != "ok"
    assert verdict["blueprints"] == {str(p): "ok" for p in BLUEPRINTS}
