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


def _mirrored(cat):
    """A mirrored cable: hub pin k lands on pod pin 9 - k. {hub signal: pod signal}."""
    return {cat[k]["signal"]: cat[len(cat) + 1 - k]["signal"] for k in cat}


def test_a_mirrored_cables_5v_meets_1k_first():
    # pin 8 carries REED: the +5 V meets R2 (README, "A wrong cable harms nothing")
    assert _mirrored_supply_reaches(PINMAP["cat5e"], NETS) == ["R2.1"]
    assert "1 kΩ" in str(schematics.pod(PINMAP).twos)
    assert schematics.mirror_spare(PINMAP["cat5e"]) == set()


def test_with_a_spare_ground_on_the_mirror_pin_the_pod_leaves_it_open():
    v2 = {1: "+5V", 2: "GND", 3: "BADGE_K", 4: "RX", 5: "TILT", 6: "LOCK", 7: "REED", 8: "GND"}
    cat = {p: {"signal": s} for p, s in v2.items()}
    pinmap = {**PINMAP, "cat5e": cat}
    assert _mirrored_supply_reaches(cat, schematics.pod(pinmap).nets()) == []


def test_on_a_mirrored_cable_no_supply_meets_an_i2c_line():
    mirrored = _mirrored(PINMAP["cat5e"])
    supplies = {"+5V", "GND"}
    for line in ("SDA", "SCL"):
        assert mirrored[line] not in supplies | {"SDA", "SCL"}, line  # the hub's line
        (source,) = [hub for hub, pod in mirrored.items() if pod == line]
        assert source not in supplies, (line, source)  # what drives the gun's line
    assert mirrored["+5V"] == "REED"
    # what drives the gun's SDA and SCL is LOCK (push-pull through 330 ohm, low unless that
    # gun holds an aim) and BADGE_K (open collector: never driven high)
    assert {s for h, s in mirrored.items() if s in ("SDA", "SCL")} == {"SDA", "SCL"}
    assert mirrored["LOCK"] == "SDA" and mirrored["BADGE_K"] == "SCL"
    # the pod passes SDA and SCL straight through: no part of the pod on them
    for line in ("SDA", "SCL"):
        assert all(p.startswith(("J1.", "J2.")) for p in NETS[line]), NETS[line]


def test_a_series_resistor_on_sda_scl_would_break_the_low_level_before_it_helped():
    # the IMU sinks both pull-ups when it pulls low: the channel's 2.2 k and the Pico's 4.7 k
    sink_ma = 3.3 / 2.2 + 3.3 / 4.7
    chip_vol, pico_vil = 0.4, 0.8  # LSM6DS3TR-C at 3 mA; RP2040 at IOVDD 3.3 V
    largest_ohm = (pico_vil - chip_vol) / sink_ma * 1000
    assert 150 < largest_ohm < 200  # README: "R under about 180 Ω"
    assert "R under about 180 Ω" in README
    # that would cut a 330 ohm-limited current by under a third
    assert (330 + largest_ohm) / 330 < 1.6


def test_the_pods_5v_passes_the_p_mosfet_drain_to_source_gate_to_ground():
    assert set(NETS["+5V_IN"]) == {f"J1.{_pin(PINMAP['cat5e'], '+5V')}", "Q1.3"}  # 3 = drain
    assert "Q1.2" in NETS["+5V"] and "J3.1" in NETS["+5V"]  # 2 = source, to the badge tip
    gate = _net_of("Q1.1")
    resistor = next(p.split(".")[0] for p in NETS[gate] if not p.startswith("Q1"))
    assert f"{resistor}.2" in NETS["GND"] or f"{resistor}.1" in NETS["GND"]
    # swapped: the gate (via R1) at the pod's ground, now +5 V, the drain at 0 V: VGS >= 0


def _pin(pins, signal):
    (pin,) = [p for p, s in pins.items() if (s if isinstance(s, str) else s["signal"]) == signal]
    return pin


def test_the_gun_is_fed_through_the_pods_ptc_and_the_reed_through_1k():
    gun_5v = _pin(PINMAP["pod"]["gun_6p6c"], "+5V")
    assert set(NETS["+5V_GUN"]) == {"F1.2", f"J2.{gun_5v}"}
    assert "F1.1" in NETS["+5V"]
    assert set(NETS["REED_IN"]) == {f"J1.{_pin(PINMAP['cat5e'], 'REED')}", "R2.1"}
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


def test_the_budget_names_the_wires_by_the_pin_maps_pins():
    names = [name for name, _ in power.drops(0)]
    for signal in ("+5V", "BADGE_K"):
        pin = _pin(PINMAP["cat5e"], signal)
        assert f"Cat5e {signal} wire (pin {pin}), 2 m" in names, signal
        assert f"| Cat5e {signal} wire (pin {pin}), 2 m |" in README, signal


def _crossed(cat):
    """A crossover cable (T568A at the pod's end, T568B at the hub's): the orange and green
    pairs trade places, hub pin k on pod pin CROSS[k]. {hub signal: pod signal}."""
    cross = {1: 3, 2: 6, 3: 1, 6: 2}
    return {cat[k]["signal"]: cat[cross.get(k, k)]["signal"] for k in cat}


def test_a_crossover_cables_5v_meets_r3_before_the_receivers_output():
    crossed = _crossed(PINMAP["cat5e"])
    assert crossed["+5V"] == "RX"
    (pin,) = [p for p, w in PINMAP["cat5e"].items() if w["signal"] == "RX"]
    net = _net_of(f"J1.{pin}")
    assert sorted(NETS[net]) == [f"J1.{pin}", "R3.1"]  # nothing else before R3
    assert "R3.2" in NETS["RX"] and any(p.startswith("J2.") for p in NETS["RX"])
    # R3 keeps the receiver's output under its absolute maximum, at the highest supply
    assert power.crossover_rx_ma(1) < power.RX_MAX_MA
    # the rest of a crossover meets no supply: the hub's GND and BADGE_K land on the
    # badge's cathodes and the pod's ground, its RX (a pull-up) on Q1's drain
    assert crossed["GND"] == "BADGE_K" and crossed["BADGE_K"] == "GND"
    assert crossed["RX"] == "+5V" and {crossed[s] for s in ("SDA", "SCL", "LOCK", "REED")} \
        == {"SDA", "SCL", "LOCK", "REED"}


def test_r3_leaves_the_receivers_low_readable_at_the_hub():
    # 10 k pull-up to 5 V, sunk through 1 k by the receiver: (5 - 0.1) / 11 k * 1 k + 0.1
    for case, supply in ((0, 5.0), (1, 5.25)):
        expected = 0.1 + (supply - 0.1) / (10_000 + 1000 + 0.168) * 1000
        assert power.rx_low_v(case) == pytest.approx(expected)
        assert power.rx_low_v(case) < power.RX_VIL - 0.2  # a fifth of a volt to spare
    assert "| RX low at the hub through the pod's R3" in README
    assert "R3, 1 kΩ" in README and "crossover" in README
