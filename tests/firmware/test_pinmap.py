"""The pin map in hardware/ agrees with the Pi config, the board configs and the drawings."""

import importlib.util
import json

import pytest
import yaml
from firmware_harness import FIRMWARE, ROOT

from companion import config
from companion.wire import irframe

HARDWARE = ROOT / "hardware"
PINMAP = yaml.safe_load((HARDWARE / "pinmap.yaml").read_text())
PI_CONFIG = ROOT / "config" / "table.pi.yaml"

# the Raspberry Pi 40-pin header: physical pin of each BCM GPIO
HEADER = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 5: 29, 6: 31,
          13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24,
          7: 26, 12: 32, 16: 36, 20: 38, 21: 40, 0: 27, 1: 28}
PI_GROUND = {6, 9, 14, 20, 25, 30, 34, 39}
# the Pico's board pin of each GP number
PICO = dict(zip([*range(0, 23), 26, 27, 28],
                [1, 2, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 20, 21, 22, 24, 25, 26,
                 27, 29, 31, 32, 34], strict=True))


def bcm(pin):
    """A config pin (17, "GPIO17", "BCM17") as a BCM number."""
    text = str(pin)
    for prefix in ("GPIO", "BCM"):
        text = text.removeprefix(prefix)
    return int(text)


def test_pi_config_pins_are_those_of_the_pin_map():
    gpio = config.load(PI_CONFIG).sensors.gpio
    for role, inputs in (("standees", gpio.standees), ("tilts", gpio.tilts)):
        assert inputs, f"{PI_CONFIG.name} wires no {role}"
        for p in inputs:
            assert bcm(p.pin) == PINMAP["pi"][role][p.seat]["bcm"], (role, p.seat, p.pin)
            assert p.pull_up is True, (role, p.seat)  # the map wires switches to ground


def test_pi_pin_map_header_pins_are_right_and_used_once():
    pins = [p for role in ("standees", "tilts") for p in PINMAP["pi"][role].values()]
    for p in pins:
        assert HEADER[p["bcm"]] == p["header"], p
    assert len({p["bcm"] for p in pins}) == len(pins)
    assert set(PINMAP["pi"]["ground"]) == PI_GROUND


@pytest.mark.parametrize("board", ["hub", "gun"])
def test_board_config_pins_are_those_of_the_pin_map(board):
    pins = json.loads((FIRMWARE / "config" / f"{board}.json").read_text())["pins"]
    mapped = PINMAP[board]
    if board == "hub":
        seats = json.loads((FIRMWARE / "config" / "hub.json").read_text())["seats"]
        for role in ("beacons", "switches"):
            assert pins[role] == [mapped[role][s]["gp"] for s in seats], role
        used = [p for role in ("beacons", "switches") for p in mapped[role].values()]
    else:
        for role in ("ir", "tilt", "led"):
            assert pins[role] == mapped[role]["gp"], role
        used = [mapped["ir"], mapped["tilt"]]
    for p in used:
        assert PICO[p["gp"]] == p["pin"], p
    assert len({p["gp"] for p in used}) == len(used)


def test_hub_beacons_each_have_their_own_pwm_channel():
    """RP2040: GPn is PWM slice (n // 2) % 8, channel n % 2; shared channels share a duty."""
    channels = [((p["gp"] // 2) % 8, p["gp"] % 2) for p in PINMAP["hub"]["beacons"].values()]
    assert len(set(channels)) == len(channels)


def test_the_wiring_drawings_are_made_from_this_pin_map():
    spec = importlib.util.spec_from_file_location("draw_wiring", HARDWARE / "draw_wiring.py")
    draw = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(draw)
    for name, svg in draw.drawings(PINMAP).items():
        assert (HARDWARE / name).read_text() == svg, f"run python hardware/draw_wiring.py ({name})"


def test_pi_config_hub_slots_can_be_played_by_the_hub():
    for board in config.load(PI_CONFIG).sensors.boards:
        if board.slot_us is not None:
            assert board.slot_us >= irframe.MIN_SLOT_US, (board.name, board.slot_us)


def test_the_pin_table_in_the_hardware_readme_is_this_pin_map():
    readme = (HARDWARE / "README.md").read_text()
    for role in ("standees", "tilts"):
        seats = PINMAP["pi"][role]
        gpios = ", ".join(str(seats[s]["bcm"]) for s in sorted(seats))
        headers = ", ".join(str(seats[s]["header"]) for s in sorted(seats))
        assert f"GPIO {gpios} (header {headers})" in readme, role
    for role in ("beacons", "switches"):
        seats = PINMAP["hub"][role]
        pins = ", ".join(str(seats[s]["pin"]) for s in sorted(seats))
        first, last = seats[min(seats)]["gp"], seats[max(seats)]["gp"]
        assert f"GP{first}–GP{last} (board pins {pins})" in readme, role
    gun = PINMAP["gun"]
    for role in ("ir", "tilt"):
        assert f"GP{gun[role]['gp']} (pin {gun[role]['pin']})" in readme, role
