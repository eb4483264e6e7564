"""The service's unit as `systemd-analyze security` scores it (exposure at most 1.5), its
devices closed but those the config names, and every directive's reason in docs/INSTALL.md."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.config import parse
from companion.service import configfile
from companion.service.unit import unit_text

ROOT = Path(__file__).resolve().parents[2]
WIRED = """table: wired
sensors:
  serial:
    - {name: hub, port: /dev/ttyAMA0}
  gpio:
    standees:
      - {seat: 7, pin: 16}
"""


def example(name: str) -> str:
    return (configfile.EXAMPLES / f"table.{name}.yaml").read_text()


def exposure(unit: Path) -> float:
    done = subprocess.run(["systemd-analyze", "security", "--offline=true", str(unit)],
                          capture_output=True, text=True, check=False)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d)", done.stdout)
    assert found, done.stdout + done.stderr
    return float(found.group(1))


def directives(text: str) -> list[str]:
    return [line.split("=")[0] for line in text.splitlines()
            if re.match(r"[A-Z][A-Za-z]+=", line)]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
@pytest.mark.parametrize("config", ["sim", "pi", "wired"])
def test_the_units_exposure_is_at_most_one_and_a_half(tmp_path, config):
    unit = tmp_path / "cashnguns.service"
    unit.write_text(unit_text(parse(WIRED if config == "wired" else example(config), "t.yaml")))
    assert exposure(unit) <= 1.5


def test_devices_are_closed_but_those_the_config_names():
    pi = unit_text(parse(example("pi"), "pi.yaml"))
    allowed = re.findall(r"^DeviceAllow=(.*)$", pi, re.M)
    assert allowed == ["char-ttyACM rw", "char-ttyUSB rw"]  # the hub, found by its USB id
    assert "DevicePolicy=closed" in pi and "ProcSubset=pid" in pi
    wired = unit_text(parse(WIRED, "wired.yaml"))
    assert re.findall(r"^DeviceAllow=(.*)$", wired, re.M) == ["/dev/ttyAMA0 rw",
                                                             "char-gpiochip rw"]
    assert "ProcSubset" not in wired  # gpiozero reads the board from /proc/device-tree
    sim = unit_text(parse(example("sim"), "sim.yaml"))
    assert re.findall(r"^DeviceAllow=(.*)$", sim, re.M) == ["/dev/ptmx rw", "char-pts rw"]
    for text in (pi, wired, sim):
        assert "SystemCallFilter=~@privileged @resources" in text
        assert "RemoveIPC=yes" in text and "IPAddressDeny=any" in text


def test_every_directive_has_its_reason_in_the_install_guide():
    guide = (ROOT / "docs" / "INSTALL.md").read_text()
    table = guide[guide.index("What the unit says, and why:"):guide.index("## Found by name")]
    units = [unit_text(parse(t, "t.yaml")) for t in (example("pi"), WIRED, example("sim"))]
    for name in sorted({d for text in units for d in directives(text)}):
        assert f"`{name}" in table, f"{name} has no reason in docs/INSTALL.md"
