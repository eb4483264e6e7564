"""Each pod survives a reversed or mirrored seat cable, and its protection's cost is in the
power budget the README shows."""

import power
import pytest
import schematics
import yaml
from hardware_dir import HARDWARE

PINMAP = yaml.safe_load((HARDWARE / "pinmap.yaml").read_text())
README = (HARDWARE / "README.md").read_text()
NETS = schematics.pod(PINMAP).nets()


def _net_of(pin):
    return next((net for net, pins in NETS.items() if pin in pins), None)


def _mirrored_supply_reaches(cat, nets):
    """What the hub's +5 V meets in a pod on a mirrored cable (hub pin k on pod pin 9 - k):
    the pod part pins on that pod pin's net, or nothing."""
    (supply,) = [p for p in cat if cat[p]["signal"] == "+5V"]
    pin = f"J1.{len(cat) + 1 - supply}"
    net = next((n for n, pins in nets.items() if pin in pins), None)
    return [] if net is None else [p for p in nets[net] if p != pin]


def test_a_mirrored_cable_puts_the_hubs_5v_on_an_open_pod_pin():
    assert _mirrored_supply_reaches(PINMAP["cat5e"], NETS) == []  # v2: pin 8, a spare GND


def test_with_a_signal_on_the_mirror_pin_the_5v_meets_1k_first():
    # the v3 cable (pinmap's `imu.cat5e`, the IMU's wiring): pin 8 carries REED
    v3 = {**PINMAP, "cat5e": PINMAP.get("imu", {}).get("cat5e") or {
        1: {"signal": "+5V"}, 2: {"signal": "BADGE_K"}, 3: {"signal": "RX"},
        4: {"signal": "SDA"}, 5: {"signal": "LOCK"}, 6: {"signal": "GND"},
        7: {"signal": "SCL"}, 8: {"signal": "REED"}}}
    nets = schematics.pod(v3).nets()
    assert _mirrored_supply_reaches(v3["cat5e"], nets) == ["R2.1"]
    assert "1 kΩ" in str(schematics.pod(v3).twos)


def test_the_pods_5v_passes_the_p_mosfet_drain_to_source_gate_to_ground():
    assert set(NETS["+5V_IN"]) == {"J1.1", "Q1.3"}  # AO3401A: 3 = drain
    assert "Q1.2" in NETS["+5V"] and "J3.1" in NETS["+5V"]  # 2 = source, to the badge tip
    gate = _net_of("Q1.1")
    resistor = next(p.split(".")[0] for p in NETS[gate] if not p.startswith("Q1"))
    assert f"{resistor}.2" in NETS["GND"] or f"{resistor}.1" in NETS["GND"]
    # swapped: the gate (via R1) at the pod's ground, now +5 V, the drain at 0 V: VGS >= 0


def test_the_gun_is_fed_through_the_pods_ptc_and_the_reed_through_1k():
    assert set(NETS["+5V_GUN"]) == {"F1.2", "J2.1"}
    assert "F1.1" in NETS["+5V"]
    assert set(NETS["REED_IN"]) == {"J1.7", "R2.1"}
    assert set(NETS["REED_SW"]) == {"R2.2", "S1.1"}
    # a closed reed with 10 k to 3.3 V at the hub reads below the 74HC165's 0.9 V low level
    assert 3.3 * 1 / (10 + 1) < 0.9
    # swapped ground: 5 V through 1 k into the 3.3 V input's clamp diode: under 20 mA
    assert (5.0 - 3.3 - 0.3) / 1000 < 0.020


@pytest.mark.parametrize("case", [0, 1])
def test_the_budget_loop_adds_up_to_the_supply(case):
    assert sum(v for _, v in power.drops(case)) == pytest.approx(power.SUPPLY_V[case])


def test_the_fet_costs_the_badge_under_half_a_percent_and_a_schottky_would_cost_11():
    without = power.badge_led_ma(0, diode_v=1e-12)
    assert power.badge_led_ma(0) > 0.995 * without
    dimmer = 1 - power.badge_led_ma(0, diode_v=0.3) / power.badge_led_ma(0)
    assert round(100 * dimmer) == 11
    assert "an 11 % dimmer badge" in README
    assert power.badge_led_ma(1) < 100  # the TSAL6400's continuous limit, even at worst


def test_the_readme_shows_the_budget_as_computed():
    assert power.markdown() in README
    assert f"(budget: {power.gun_supply_v(1):.2f} V worst)" in README  # the bench table
    assert f"**{power.badge_led_ma(0):.1f} mA**" in README
