"""The pin map in hardware/ agrees with the Pi config, the hub's firmware config and the
hub board's wiring.

The drawings made from it are checked by tests/hardware/.
"""

import json

import yaml
from firmware_harness import ROOT

from companion import config
from companion.wire import lsm6

HARDWARE = ROOT / "hardware"
PINMAP = yaml.safe_load((HARDWARE / "pinmap.yaml").read_text())
PI_CONFIG = ROOT / "config" / "table.pi.yaml"
HUB_CONFIG = json.loads((ROOT / "firmware" / "config" / "hub.json").read_text())

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
    """Switches wired straight to the Pi (optional since the hub reads the seat pods)."""
    gpio = config.load(PI_CONFIG).sensors.gpio
    for role, inputs in (("standees", gpio.standees), ("tilts", gpio.tilts)):
        for p in inputs:
            assert bcm(p.pin) == PINMAP["pi"][role][p.seat]["bcm"], (role, p.seat, p.pin)
            assert p.pull_up is True, (role, p.seat)  # the map wires switches to ground


def test_pi_pin_map_header_pins_are_right_and_used_once():
    pins = [p for role in ("standees", "tilts") for p in PINMAP["pi"][role].values()]
    for p in pins:
        assert HEADER[p["bcm"]] == p["header"], p
    assert len({p["bcm"] for p in pins}) == len(pins)
    assert set(PINMAP["pi"]["ground"]) == PI_GROUND


def hub_pins():
    hub = PINMAP["hub"]
    return ([hub["receivers"][s] for s in sorted(hub["receivers"])] + [hub["carrier"]]
            + [p for group in ("address", "lock", "inputs", "i2c") for p in hub[group].values()])


def test_hub_pin_map_board_pins_are_right_and_used_once():
    pins = hub_pins()
    for p in pins:
        assert PICO[p["gp"]] == p["pin"], p
    assert len({p["gp"] for p in pins}) == len(pins)
    assert PINMAP["hub"]["power"]["vbus"] == 40
    assert PINMAP["hub"]["power"]["3v3_out"] == 36


def test_hub_receivers_are_read_in_one_register_read_in_seat_order():
    """Seat s on GP(s-1): bit s-1 of the GPIO input register is seat s's receiver."""
    receivers = PINMAP["hub"]["receivers"]
    assert [receivers[s]["gp"] for s in sorted(receivers)] == list(range(len(receivers)))


def test_the_pin_table_in_the_hardware_readme_is_this_pin_map():
    readme = (HARDWARE / "README.md").read_text()
    for role in ("standees", "tilts"):
        seats = PINMAP["pi"][role]
        gpios = ", ".join(str(seats[s]["bcm"]) for s in sorted(seats))
        headers = ", ".join(str(seats[s]["header"]) for s in sorted(seats))
        assert f"GPIO {gpios} (header {headers})" in readme, role
    seats = PINMAP["hub"]["receivers"]
    pins = ", ".join(str(seats[s]["pin"]) for s in sorted(seats))
    first, last = seats[min(seats)]["gp"], seats[max(seats)]["gp"]
    assert f"GP{first}–GP{last} (board pins {pins})" in readme
    for p in hub_pins()[len(seats):]:
        assert f"GP{p['gp']}" in readme, p


def test_the_hub_firmware_uses_the_pin_maps_pins():
    """firmware/config/hub.json drives the pins the board is wired to."""
    hub, pins = PINMAP["hub"], HUB_CONFIG["pins"]
    receivers = hub["receivers"]
    assert pins["receivers"] == [receivers[s]["gp"] for s in sorted(receivers)]
    assert pins["carrier"] == hub["carrier"]["gp"]
    assert pins["address"] == [hub["address"][a]["gp"] for a in ("A0", "A1", "A2")]
    assert pins["lock"] == [hub["lock"][k]["gp"] for k in ("data", "clock", "latch")]
    assert pins["inputs"] == [hub["inputs"][k]["gp"] for k in ("load", "clock", "data")]
    assert pins["i2c"] == [hub["i2c"]["SDA"]["gp"], hub["i2c"]["SCL"]["gp"]]
    assert HUB_CONFIG["i2c_id"] == 0  # GP20/GP21 are I2C0's SDA/SCL on the RP2040


def test_the_imus_addresses_are_the_firmwares():
    """One multiplexer channel per seat, every gun's IMU at the same address."""
    source = (ROOT / "firmware" / "hub" / "imu.py").read_text()
    assert f"MUX = 0x{PINMAP['hub']['mux']['address']:02X}" in source
    assert PINMAP["gun"]["imu"]["address"] == lsm6.CHIP  # the hub's and the Pi's reader


def test_the_seat_cable_carries_i2c_and_no_tilt():
    cable = {w["signal"] for w in PINMAP["cat5e"].values()}
    assert {"SDA", "SCL"} <= cable and "TILT" not in cable
    assert set(PINMAP["pod"]["gun_6p6c"].values()) >= {"SDA", "SCL", "+5V", "GND"}
