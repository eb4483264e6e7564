"""The gun firmware, on the MicroPython unix port, through a pty to `companion sensors`.

The board's main.py writes its lines into a pseudo-terminal; the companion, started as
its own process with a config naming that port, reads them and publishes on a real
Mosquitto, where an independent `mosquitto_sub` sees the aim and the tilt.
"""

import json
import subprocess
import sys

import pytest
from firmware_harness import ROOT, BoardOnPty

from companion.bus.topics import Topics
from companion.wire import irframe

GUN = {"id": "g3", "seat": 3, "pins": {"ir": 15, "tilt": 14}}
ROUND_MS = 112  # 8 slots of 14 ms
WORLD = [
    {"at_ms": 0, "pin": 14, "level": 0},  # the gun is raised
    {"at_ms": 200, "pin": 15, "pulses": irframe.encode(5), "every_ms": ROUND_MS, "times": 250},
]


def table_yaml(table, mqtt_url, port):
    return f"""
table: {table}
mqtt: {{url: "{mqtt_url}"}}
sensors:
  serial:
    - {{port: "{port}", name: gun-3, id: g3}}
"""


@pytest.fixture
def gun_on_pty(micropython, tmp_path):
    board = BoardOnPty(micropython, "gun", tmp_path, GUN, WORLD)
    board.line()  # the board is up (its HELLO)
    board.hang_up()  # the companion is the only reader from now on
    yield board
    board.close()


def companion(*args):
    return subprocess.Popen(
        [sys.executable, "-m", "companion.cli", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def test_the_aim_of_the_gun_firmware_appears_on_mqtt(gun_on_pty, mosquitto, observe, tmp_path):
    topics = Topics("firmware-e2e")
    config = tmp_path / "table.yaml"
    config.write_text(table_yaml(topics.table, mosquitto.url, gun_on_pty.path))
    watch = observe(mosquitto.port, topics.all)
    proc = companion("sensors", "--config", str(config))
    try:
        info = watch.expect(topics.device_info("g3"), lambda p: json.loads(p)["online"], 15)
        aim = watch.expect(topics.gun_aim(3), lambda p: json.loads(p)["target"] == 5)
        raised = watch.expect(topics.gun_raised(3), lambda p: json.loads(p)["raised"])
    except AssertionError as e:
        proc.terminate()
        out = proc.communicate(timeout=10)[0]
        raise AssertionError(f"{e}\ncompanion sensors said:\n{out}") from None
    proc.terminate()
    proc.wait(timeout=10)
    assert json.loads(info)["firmware"] == "0.1.0"
    assert json.loads(aim)["device"] == "g3" and json.loads(raised)["device"] == "g3"


def test_doctor_shows_the_board_version_and_readings(gun_on_pty, mosquitto, tmp_path):
    config = tmp_path / "table.yaml"
    config.write_text(table_yaml("firmware-doctor", mosquitto.url, gun_on_pty.path))
    proc = companion("doctor", "--config", str(config), "--listen", "2")
    out = proc.communicate(timeout=30)[0]
    g3 = [line for line in out.splitlines() if line.strip().startswith("g3")]
    assert g3 and "online" in g3[0] and "fw 0.1.0" in g3[0], out
    assert "seat 3:" in out and "gun aims at seat 5, raised" in out, out
