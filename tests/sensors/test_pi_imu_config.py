"""`sensors.gpio.imu`: the guns' IMUs on the Pi's I2C header, checked when loaded."""

from pathlib import Path

import pytest

from companion import config
from companion.config import ConfigError

ROOT = Path(__file__).resolve().parents[2]


def error(text: str) -> str:
    with pytest.raises(ConfigError) as err:
        config.parse(text, "table.yaml")
    return str(err.value)


def test_the_defaults_are_bus_1_the_mux_at_0x70_and_50_samples_a_second():
    text = "sensors:\n  gpio:\n    imu: {seats: [1, 2, 3]}\n"
    imu = config.parse(text, "t.yaml").sensors.gpio.imu
    assert (imu.seats, imu.bus, imu.mux, imu.hz) == ((1, 2, 3), 1, 0x70, 50.0)


def test_eight_guns_fit_the_bus_at_50_but_not_at_60_samples_a_second():
    """8 x 50 x 1.8 ms = 72 % of a 100 kHz bus; 8 x 60 x 1.8 ms = 86 %, over 80 %."""
    ok = "sensors:\n  gpio:\n    imu: {seats: [1, 2, 3, 4, 5, 6, 7, 8], hz: 50}\n"
    assert config.parse(ok, "t.yaml").sensors.gpio.imu.hz == 50
    msg = error(ok.replace("hz: 50", "hz: 60"))
    assert msg.startswith("table.yaml:3: sensors.gpio.imu.hz:") and "86%" in msg
    assert "at most 55" in msg


@pytest.mark.parametrize(("text", "where", "what"), [
    ("sensors:\n  gpio:\n    imu:\n      seats: [1, 9]\n", "sensors.gpio.imu.seats[1]",
     "from 1 to 8"),
    ("sensors:\n  gpio:\n    imu:\n      seats: [2, 2]\n", "sensors.gpio.imu.seats",
     "seat 2 appears twice"),
    ("sensors:\n  gpio:\n    imu: {seats: [1], mux: 0x71, bus: 1, rate: 5}\n",
     "sensors.gpio.imu.rate", "unknown key"),
    ("sensors:\n  gpio:\n    imu: {seats: [1], mux: 0x20}\n", "sensors.gpio.imu.mux",
     "from 112 to 119"),
    ("sensors:\n  gpio:\n    tilts: [{seat: 1, pin: 17}]\n    imu: {seats: [2]}\n",
     "sensors.gpio.imu", "not both"),
    ("sensors:\n  gpio:\n    imu: {seats: [1]}\n  sim: {guns: [1, 2]}\n", "sensors.gpio.imu",
     "simulated hub"),
    ("sensors:\n  gpio:\n    imu: {seats: [6, 7]}\n  serial:\n    - {name: hub, port: /dev/x, "
     "slots: {slot_us: 2000, seats: [1, 2, 3, 4, 5, 6]}}\n", "sensors.gpio.imu.seats",
     "seat 6 is in the slots of the hub 'hub' too"),
])
def test_mistakes_name_the_key(text, where, what):
    msg = error(text)
    assert f": {where}:" in msg and what in msg


def test_the_installed_service_may_open_the_imus_bus_and_no_other():
    """The unit's DevicePolicy=closed would hide /dev/i2c-1 from the reader (docs/INSTALL.md)."""
    from companion.service.unit import device_lines

    text = "sensors:\n  gpio:\n    imu: {seats: [1, 2], bus: 1}\n"
    lines = device_lines(config.parse(text, "t.yaml"))
    assert [x for x in lines if x.startswith("DeviceAllow=")] == ["DeviceAllow=/dev/i2c-1 rw"]


def test_the_pi_examples_gpio_block_loads_once_uncommented():
    text = (ROOT / "config" / "table.pi.yaml").read_text()
    head, rest = text.split("  # gpio:", 1)
    block, tail = ("  # gpio:" + rest).split("\n\n", 1)
    block = "\n".join(line.replace("# ", "", 1) for line in block.splitlines())
    c = config.parse(f"{head}{block}\n\n{tail}", "table.pi.yaml")
    imu = c.sensors.gpio.imu
    assert (imu.seats, imu.bus, imu.mux, imu.hz) == ((7,), 1, 0x70, 50)
    assert c.sensors.gpio.standees[0].seat == 7 and not c.sensors.gpio.tilts


def test_the_references_imu_line_is_one_the_loader_takes():
    """docs/SENSORS.md shows `imu` as a comment (a table has tilts or IMUs, not both)."""
    text = (ROOT / "docs" / "SENSORS.md").read_text()
    line = next(x for x in text.splitlines() if x.strip().startswith("# imu: {"))
    value = line.split("# imu: ", 1)[1].split("  #", 1)[0]
    imu = config.parse(f"sensors:\n  gpio:\n    imu: {value}\n", "SENSORS.md").sensors.gpio.imu
    assert (imu.seats, imu.bus, imu.mux, imu.hz) == ((7, 8), 1, 0x70, 50)


def test_the_pin_map_puts_the_imus_on_the_pis_i2c1_pins_and_the_readme_says_so():
    """I2C1 is BCM 2 (SDA) and 3 (SCL), header pins 3 and 5 on every 40-pin Pi; no switch
    may sit on them, and the hardware README's generated table gives them."""
    import yaml

    pinmap = yaml.safe_load((ROOT / "hardware" / "pinmap.yaml").read_text())["pi"]
    assert pinmap["i2c"] == {"SDA": {"bcm": 2, "header": 3}, "SCL": {"bcm": 3, "header": 5}}
    assert (pinmap["mux"]["part"], pinmap["mux"]["address"]) == ("TCA9548A", 0x70)
    switches = {p["bcm"] for role in ("standees", "tilts") for p in pinmap[role].values()}
    assert not switches & {2, 3}
    readme = (ROOT / "hardware" / "README.md").read_text()
    assert "| Pi | guns' IMUs ↔ TCA9548A SDA, SCL (I2C1, tables without a hub) | GPIO 2, 3 " \
           "(header 3, 5) |" in readme


def test_the_referee_counts_a_gun_whose_imu_the_pi_reads_as_a_gun_without_aims():
    from companion.referee.equipment import configured

    text = "sensors:\n  gpio:\n    imu: {seats: [2, 5]}\n"
    kit = configured(config.parse(text, "t.yaml").sensors)
    seats = {s["seat"]: s for s in kit.seats()}
    assert seats[2] == {"seat": 2, "gun": True, "ir": False, "standee": False}
    assert seats[5]["gun"] and not seats[3]["gun"]
