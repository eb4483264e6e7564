"""The Pi's IMU reader in the sensor bridge, on a fake I2C bus, published to a real Mosquitto
and watched by an independent mosquitto_sub; `companion doctor` reading what it published."""

import itertools
import json

import pytest

from companion import config
from companion.referee import inputs
from companion.sensors import build_bridge
from companion.sensors.doctor_cmd import read_live, report
from tests.sensors.fake_i2c import FakeBus, FakeImu
from tests.sensors.test_commands import companion, write_config

_tables = itertools.count(1)


def imu_config(mosquitto, seats):
    return config.parse(f"""
table: imu{next(_tables)}
mqtt: {{url: '{mosquitto.url}'}}
sensors:
  gpio:
    imu: {{seats: {list(seats)}}}
""", "table.yaml")


@pytest.fixture
def table(mosquitto, observe):
    """`table(imus)`: a bridge reading the fake chips (channel -> FakeImu), started."""
    bridges = []

    def start(imus):
        bus = FakeBus(imus)
        bridge = build_bridge(imu_config(mosquitto, [c + 1 for c in sorted(imus)]))
        bridge.imus.open_bus = lambda n: bus
        obs = observe(mosquitto.port, bridge.topics.all)
        bridges.append(bridge.start())
        return bridge, bus, obs

    yield start
    for bridge in bridges:
        bridge.stop()


@pytest.fixture
def rig(table):
    imus = {0: FakeImu(), 1: FakeImu()}
    bridge, bus, obs = table(imus)
    return bridge, imus, bus, obs


def raised(p):
    return json.loads(p)["raised"]


def stat_of(obs, bridge, match):
    return json.loads(obs.expect(bridge.topics.device("pi-imu", "stat"),
                                 lambda p: match(json.loads(p)), timeout=5))


def test_guns_raised_lowered_and_aiming_down_reach_the_bus_as_a_hubs_facts(rig):
    bridge, imus, _, obs = rig
    t = bridge.topics
    assert obs.expect(t.device("pi-imu", "availability")) == "online"
    for seat in (1, 2):
        payload = obs.expect(t.gun(seat, "raised"), lambda p: not raised(p))
        fact = inputs.fact_from_message(t.gun(seat, "raised"), payload.encode())
        assert (fact.kind, fact.seat, fact.value, fact.device) == ("raised", seat, False,
                                                                   "pi-imu")
    imus[0].elevation = 0.0  # raised level
    obs.expect(t.gun(1, "raised"), raised)
    imus[0].elevation = -30.0  # a standing player aiming down at a seated neighbour
    stat_of(obs, bridge, lambda s: abs(s["guns"]["1"]["elevation"] + 30) < 1)
    stat_of(obs, bridge, lambda s: s["guns"]["1"]["still"])
    imus[0].yaw_dps = 30.0  # sweeping round the table
    gun = stat_of(obs, bridge, lambda s: not s["guns"]["1"]["still"])["guns"]["1"]
    assert gun["raised"] and 20 < gun["rate"] < 40
    imus[0].yaw_dps = 0.0
    imus[0].elevation = -80.0  # let down
    obs.expect(t.gun(1, "raised"), lambda p: not raised(p))
    said = [raised(p) for topic, p, _ in obs.drain() if topic == t.gun(1, "raised")]
    assert said == []  # raised once, lowered once: aiming down and the sweep changed nothing
    assert [raised(p) for topic, p, _ in obs.drain() if topic == t.gun(2, "raised")] == []


def test_a_missing_or_wrong_imu_is_reported_once_by_the_doctor_and_the_others_read_on(
        table):
    imus = {0: FakeImu(), 1: FakeImu(), 2: FakeImu(who=0x69)}
    bridge, bus, obs = table(imus)
    obs.expect(bridge.topics.device("pi-imu", "availability"), lambda p: p == "online")
    bus.unplugged.add(1)
    stat_of(obs, bridge, lambda s: {"2", "3"} <= set(s["faults"]))
    imus[0].elevation = 0.0
    obs.expect(bridge.topics.gun(1, "raised"), raised)
    retained = read_live(bridge.config, 3.0)
    assert retained is not None
    lines, missing = report(bridge.config, retained, bridge.clock.now_ms())
    imu_problems = [m for m in missing if "IMU" in m]
    assert imu_problems == ["seat 2: its gun's IMU (channel 1 of the TCA9548A): no answer "
                            "([Errno 121] Remote I/O error)",
                            "seat 3: its gun's IMU (channel 2 of the TCA9548A): WHO_AM_I "
                            "reads 0x69, not 0x6a: not an LSM6DS3TR-C"]
    assert "  seat 1: standee ?, no aims without a hub, raised" in lines
    assert "seat 1: no gun aim reading" not in missing  # none can come without a hub
    assert "seat 1: no standee reading" in missing
    reads = stat_of(obs, bridge, lambda s: True)["reads"]
    assert stat_of(obs, bridge, lambda s: s["reads"] > reads)  # the reader goes on


def test_doctor_on_a_pi_without_i2c_says_so_and_exits_1(tmp_path, mosquitto):
    """The real smbus2 and a bus that is not there: the bridge runs, the doctor says why."""
    path = write_config(tmp_path, mosquitto, "imu-nobus",
                        "  gpio:\n    imu: {seats: [3], bus: 29}\n")
    doctor = companion("doctor", "--config", str(path), "--listen", "0.5")
    out, _ = doctor.communicate(timeout=30)
    assert doctor.returncode == 1, out
    assert out.count("IMUs on /dev/i2c-29: offline (no I2C bus /dev/i2c-29") == 1, out
    assert "seats 3: the Pi reads their guns' IMUs: raised and lowered by angle" in out
