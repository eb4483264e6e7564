"""`companion replay` starts fast: it loads the rules and the plain file reader, not PyYAML
nor the table's web, MQTT, serial or journal libraries (issue 13; the figure:
docs/PERFORMANCE.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "scenarios" / "examples" / "e01_first_round.yaml"

PROBE = """
import contextlib, io, json, sys
from companion.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["replay", sys.argv[1]])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def test_a_replay_loads_neither_the_web_nor_mqtt_nor_serial_nor_the_journal():
    run = subprocess.run([sys.executable, "-c", PROBE, str(EXAMPLE)], capture_output=True,
                         text=True, check=True, cwd=ROOT)
    seen = json.loads(run.stdout)
    assert seen["code"] == 0
    roots = {name.split(".")[0] for name in seen["modules"]}
    assert not roots & {"flask", "werkzeug", "jinja2", "paho", "serial", "sqlite3",
                        "gpiozero", "waitress", "random"}
    assert "yaml" not in roots, "the plain reader reads a scenario file, PyYAML is not loaded"
    assert not any(name.startswith(("companion.referee", "companion.dashboard",
                                    "companion.sensors", "companion.bus"))
                   for name in seen["modules"])
