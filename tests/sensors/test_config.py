"""Config files: the shipped ones load; every mistake names the file, the line and the key."""

from pathlib import Path

import pytest

from companion import config
from companion.config import ConfigError

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_configs_load():
    sim = config.load(ROOT / "config" / "table.sim.yaml")
    assert sim.mqtt.embedded and sim.sensors.sim.guns == (1, 2, 3, 4, 5, 6)
    assert (sim.sensors.sim.slot_us, sim.sensors.sim.hand.offset_deg) == (2000, 3.0)
    pi = config.load(ROOT / "config" / "table.pi.yaml")
    assert pi.mqtt.embedded and pi.sensors.boards[0].usb == (0x2E8A, 0x0005)
    assert pi["dashboard"].mdns and not sim["dashboard"].mdns
    assert pi.sensors.boards[0].slot_seats == (1, 2, 3, 4, 5, 6)
    assert pi.sensors.filters.hold_ms == 500


def test_the_reference_example_loads():
    """The YAML block of docs/SENSORS.md is a config the loader accepts."""
    text = (ROOT / "docs" / "SENSORS.md").read_text()
    block = text.split("## Configuration reference", 1)[1].split("```yaml\n", 1)[1]
    c = config.parse(block.split("```", 1)[0], "SENSORS.md")
    assert c.sensors.boards[-1].slot_us == 2000 and c.sensors.filters.hold_ms == 500


def test_an_empty_file_is_a_table_with_nothing_configured():
    c = config.parse("", "empty.yaml")
    assert c.table == "table" and c.mqtt.embedded and not c.sensors.boards


def error(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as err:
        config.parse(text, "table.yaml")
    return err.value


@pytest.mark.parametrize(("text", "line", "key", "words"), [
    ("table: demo\nsensors:\n  gpio:\n    standees:\n      - {seat: 1, pin: 99}\n",
     5, "sensors.gpio.standees[0].pin", "GPIO number"),
    ("sensors:\n  filters:\n    debounce_ms: -3\n", 3, "sensors.filters.debounce_ms", "from 0"),
    ("sensors:\n  filters:\n    debounce: 3\n", 3, "sensors.filters.debounce", "unknown key"),
    ("mqtt:\n  url: http://x\n", 2, "mqtt.url", "mqtt://"),
    ("mqtt:\n  url: mqtt://h\n  ca_file: ca.pem\n", 3, "mqtt.ca_file", "mqtts"),
    ("sensors:\n  serial:\n    - {name: a}\n", 3, "sensors.serial[0].port", "exactly one"),
    ("sensors:\n  serial:\n    - {usb: 'nope'}\n", 3, "sensors.serial[0].usb", "does not match"),
    ("sensors:\n  sim:\n    guns: [1, 9]\n", 3, "sensors.sim.guns[1]", "from 1 to 8"),
    ("sensors:\n  sim:\n    guns: [2, 3]\n", 3, "sensors.sim.guns", "seats 1 to N"),
    ("sensors:\n  gpio:\n    standees: [{seat: 1, pin: 5}]\n  sim:\n    guns: [1, 2]\n", 3,
     "sensors.gpio.standees", "seat 1 is on the simulated hub"),
    ("table: a\nsensor: {}\n", 2, "sensor", "unknown section"),
    ("table: Big Table\n", 1, "table", "does not match"),
    ("sensors:\n  gpio:\n    tilts:\n      - {seat: 1, pin: 4, pull_up: null}\n",
     4, "sensors.gpio.tilts[0].active_high", "required"),
    ("sensors:\n  gpio: [1]\n", 2, "sensors.gpio", "mapping"),
    ("sensors:\n  filters:\n    aim_acquire_ms: 120\n", 3, "sensors.filters.aim_acquire_ms",
     "unknown key"),
    ("sensors:\n  serial:\n    - port: /dev/x\n      slots:\n        slot_us: 10000\n"
     "        seats: [1, 2]\n", 5, "sensors.serial[0].slots.slot_us", "from 1500 to 5000"),
    ("sensors:\n  filters: {hold_ms: 100}\n  serial:\n    - port: /dev/x\n      slots:\n"
     "        slot_us: 4000\n        seats: [1, 2, 3, 4, 5, 6, 7, 8]\n", 6,
     "sensors.serial[0].slots.slot_us", "36 ms, longer than a third of sensors.filters.hold_ms"),
    ("sensors:\n  filters: {hold_ms: 100}\n  sim:\n    guns: [1, 2, 3, 4, 5, 6, 7, 8]\n"
     "    slot_us: 4000\n", 5, "sensors.sim.slot_us", "longer than a third"),
    ("sensors:\n  serial:\n    - port: /dev/x\n      slots: {slot_us: 2000, seats: [1, 1]}\n",
     4, "sensors.serial[0].slots.seats", "seat 1 appears twice"),
    ("sensors:\n  sim:\n    table: {shape: round, width_m: 1}\n", 3,
     "sensors.sim.table.width_m", "only for shape: rect"),
    ("sensors:\n  sim:\n    hand: {offset: 3}\n", 3, "sensors.sim.hand.offset", "unknown key"),
])
def test_mistakes_name_file_line_and_key(text, line, key, words):
    err = error(text)
    assert (err.file, err.line, err.key) == ("table.yaml", line, key)
    assert words in err.message
    assert str(err).startswith(f"table.yaml:{line}: {key}: ")


def test_a_duplicate_key_is_refused_at_its_line():
    err = error("table: a\nmqtt: {}\ntable: b\n")
    assert err.line == 3 and "duplicate key 'table'" in str(err)


def test_broken_yaml_names_the_line():
    err = error("table: demo\nsensors: [\n")
    assert err.file == "table.yaml" and err.line is not None


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(ConfigError, match=r"nothere\.yaml: cannot read"):
        config.load(tmp_path / "nothere.yaml")


def test_url_credentials_and_tls():
    c = config.parse("mqtt:\n  url: mqtts://u%40x:p%3Aw@broker.lan\n  ca_file: ca.pem\n")
    m = c.mqtt
    assert (m.host, m.port, m.tls, m.username, m.password, m.ca_file) == (
        "broker.lan", 8883, True, "u@x", "p:w", "ca.pem")


def test_qos_is_1_by_default_whatever_the_broker():
    assert config.parse("mqtt: {url: 'mqtt://h'}").mqtt.qos == 1
    assert config.parse("mqtt: {}").mqtt.qos == 1  # the table's own Mosquitto can restart
    assert config.parse("mqtt: {url: 'mqtt://h', qos: 0}").mqtt.qos == 0


def test_sections_are_extensible(monkeypatch):
    monkeypatch.setitem(config.SECTIONS, "extra", f"{__name__}:parse_extra")
    c = config.parse("extra:\n  countdown_ms: 900\n")
    assert c["extra"] == {"countdown_ms": 900}


def parse_extra(node):
    return {"countdown_ms": node.integer("countdown_ms", 1000)}
