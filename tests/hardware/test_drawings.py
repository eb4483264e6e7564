"""The schematics, cable drawings and perfboard agree with the pin map and the spec."""

import collections
import re

import harness
import perfboard
import pytest
import schematics
import yaml
from hardware_dir import HARDWARE

PINMAP = yaml.safe_load((HARDWARE / "pinmap.yaml").read_text())
GEN = HARDWARE / "gen"

# the hub's pins as fixed by the v2 sensor design, with v3's I2C for the guns' IMUs
SPEC_HUB = {"receivers": {s: s - 1 for s in range(1, 9)}, "carrier": 8,
            "address": {"A0": 9, "A1": 10, "A2": 11},
            "lock": {"data": 12, "clock": 13, "latch": 14},
            "inputs": {"load": 15, "clock": 16, "data": 17},
            "i2c": {"SDA": 20, "SCL": 21}, "led": 25}
# v3's cable (hardware/IMU.md, "Which wire pairs with which"): each pair's two signals
# quiet for each other, no I2C line in a pair with the other or with RX
SPEC_CAT5E = {1: "+5V", 2: "BADGE_K", 3: "RX", 4: "SDA", 5: "LOCK", 6: "GND", 7: "SCL",
              8: "REED"}
T568B_PAIRS = [(1, 2), (3, 6), (4, 5), (7, 8)]
# the flat gun cord: a GND wire between SDA and SCL, +5V between them and RX
SPEC_GUN_CORD = {1: "SDA", 2: "GND", 3: "SCL", 4: "+5V", 5: "RX", 6: "LOCK"}
T568B = {1: "white-orange", 2: "orange", 3: "white-green", 4: "blue", 5: "white-blue",
         6: "green", 7: "white-brown", 8: "brown"}


def hub_gps():
    hub = PINMAP["hub"]
    return ([hub["receivers"][s]["gp"] for s in range(1, 9)] + [hub["carrier"]["gp"]]
            + [p["gp"] for g in ("address", "lock", "inputs", "i2c") for p in hub[g].values()])


def test_the_pin_map_is_the_spec():
    hub = PINMAP["hub"]
    assert {s: p["gp"] for s, p in hub["receivers"].items()} == SPEC_HUB["receivers"]
    assert hub["carrier"]["gp"] == SPEC_HUB["carrier"]
    for group in ("address", "lock", "inputs", "i2c"):
        assert {k: p["gp"] for k, p in hub[group].items()} == SPEC_HUB[group], group
    assert hub["led"]["gp"] == SPEC_HUB["led"]
    cat = PINMAP["cat5e"]
    assert {p: cat[p]["signal"] for p in cat} == SPEC_CAT5E
    assert {p: cat[p]["colour"] for p in cat} == T568B
    assert PINMAP["pod"]["gun_6p6c"] == SPEC_GUN_CORD


def test_no_pair_couples_an_i2c_line_into_the_other_or_into_rx():
    cat = PINMAP["cat5e"]
    for a, b in T568B_PAIRS:
        assert cat[a]["pair"] == cat[b]["pair"], (a, b)
        pair = {cat[a]["signal"], cat[b]["signal"]}
        assert pair != {"SDA", "SCL"} and not ({"SDA", "SCL"} & pair and "RX" in pair), pair
    cord = PINMAP["pod"]["gun_6p6c"]
    at = {signal: pin for pin, signal in cord.items()}
    assert abs(at["SDA"] - at["SCL"]) > 1 and abs(at["SCL"] - at["RX"]) > 1  # not adjacent
    assert abs(at["SDA"] - at["RX"]) > 1


def test_no_duplicate_of_the_cable_survives_outside_cat5e_pod_and_gun():
    assert set(PINMAP) == {"version", "hub", "cat5e", "pod", "gun", "badge", "pi"}
    assert PINMAP["version"] == 3


def test_every_hub_gp_appears_in_the_hub_schematic():
    svg = (GEN / "schematic-hub.svg").read_text()
    for gp in hub_gps():
        assert f">GP{gp}<" in svg, gp


def test_every_schematic_net_joins_at_least_two_pins():
    for name, sheet in schematics.sheets(PINMAP).items():
        for net, pins in sheet.nets().items():
            assert len(pins) >= 2, (name, net, pins)


def test_each_hub_jack_carries_its_seats_signals():
    nets = schematics.hub(PINMAP).nets()
    for seat in range(1, 9):
        for pin, signal in SPEC_CAT5E.items():
            net = "GND" if signal == "GND" else (
                f"+5V_{seat}" if signal == "+5V" else f"{signal}{seat}")
            assert f"J{seat}.{pin}" in nets[net], (seat, pin, signal)
        # the receiver of seat s reaches GP(s-1) through the buffer
        assert f"U1.{PINMAP['hub']['receivers'][seat]['pin']}" in nets[f"RXB{seat}"]


def test_the_gun_schematic_draws_the_imu_on_the_cords_i2c_and_supply():
    nets = schematics.gun(PINMAP).nets()
    cord = {signal: pin for pin, signal in PINMAP["pod"]["gun_6p6c"].items()}
    for signal, imu_pin in (("SDA", 4), ("SCL", 3), ("+5V", 1)):
        assert {f"P1.{cord[signal]}", f"U2.{imu_pin}"} <= set(nets[signal]), signal
    assert {"U2.2", "U2.5"} <= set(nets["GND"])  # SA0 low: address 0x6A
    assert set(nets["3V3_IMU"]) == {"U2.6", "U2.7"}  # CS high: I2C, not SPI
    svg = (GEN / "schematic-gun.svg").read_text()
    assert PINMAP["gun"]["imu"]["part"] in svg and "SW-520D" not in svg


def test_the_hub_draws_the_multiplexer_with_each_seats_pull_ups():
    nets = schematics.hub(PINMAP).nets()
    for seat in range(1, 9):
        sd, sc = 9 + 2 * (seat - 1), 10 + 2 * (seat - 1)  # SD(s-1), SC(s-1)
        assert set(nets[f"SDA{seat}"]) == {f"U6.{sd}", f"RN1.{1 + seat}", f"J{seat}.4"}
        assert set(nets[f"SCL{seat}"]) == {f"U6.{sc}", f"RN4.{1 + seat}", f"J{seat}.7"}
    i2c = PINMAP["hub"]["i2c"]
    assert set(nets["SDA"]) == {f"U1.{i2c['SDA']['pin']}", "U6.3", "R9.2"}
    assert set(nets["SCL"]) == {f"U1.{i2c['SCL']['pin']}", "U6.4", "R10.2"}
    assert {"RN1.1", "RN4.1", "R9.1", "R10.1"} <= set(nets["+3V3"])
    assert {"U6.6", "U6.7", "U6.8"} <= set(nets["GND"])  # A0..A2 low: 0x70
    assert PINMAP["hub"]["mux"]["address"] == 0x70
    assert not any(net.startswith("TILT") for net in nets)
    svg = (GEN / "schematic-hub.svg").read_text()
    assert "2.2 kΩ ×8" in svg and "4.7 kΩ" in svg


def test_pod_and_cords_carry_only_cat5e_signals():
    signals = set(SPEC_CAT5E.values())
    pod = PINMAP["pod"]
    assert set(pod["gun_6p6c"].values()) == signals - {"BADGE_K", "REED"}
    assert pod["badge_trs"]["tip"] == "+5V"  # deepest contact: no plug going in shorts it
    assert pod["badge_trs"]["sleeve"] == "BADGE_K"
    assert set(pod["reed"]) == {"REED", "GND"}


def test_every_cat5e_pin_and_colour_is_in_the_cable_drawing():
    svg = (GEN / "seat-cable.svg").read_text()
    for pin, signal in SPEC_CAT5E.items():
        code = harness.T568B[pin - 1]
        assert harness.colour_name(code) == T568B[pin]
        for end in ("HUB", "POD"):
            assert f"{end}:{pin}:{signal}" in svg, (end, pin)
        assert f"{pin}:{code}" in svg, (pin, code)


@pytest.mark.parametrize("cord", ["gun-cord", "badge-cord"])
def test_the_cords_drawings_name_the_pod_jacks_signals(cord):
    svg = (GEN / f"{cord}.svg").read_text()
    pod = PINMAP["pod"]["gun_6p6c" if cord == "gun-cord" else "badge_trs"]
    for signal in filter(None, pod.values()):
        assert signal in svg, signal


def test_the_pin_views_show_every_jack_pin():
    svg = (GEN / "pin-views.svg").read_text()
    for signal in SPEC_CAT5E.values():
        assert f">{signal}<" in svg
    assert "1 OUT" in svg and "2 GND" in svg and "3 VS" in svg  # TSOP38238


def test_perfboard_parts_fit_and_match_the_hub_schematic():
    used = collections.Counter(h for part in perfboard.PARTS for h in perfboard.holes(part))
    assert all(n == 1 for n in used.values()), "two parts share a hole"
    assert all(0 <= c < perfboard.COLS and 0 <= r < perfboard.ROWS for c, r in used)
    sheet = schematics.hub(PINMAP)
    pins = {ref: len(left) + len(right) for ref, _, left, right, _ in sheet.chips}
    pins.update({ref: 2 for ref, *_ in sheet.twos})
    board = {part[0]: part[4] for part in perfboard.PARTS}
    assert set(board) == set(pins)  # one set of designators, every part drawn
    for ref in ("U2", "U3", "U4", "U5", "U6", "U7"):
        assert board[ref] >= pins[ref], ref  # every drawn pin has a hole
    assert board["U1"] == 40
    for part in perfboard.PARTS:
        assert part[5].split()[0] == part[0], part  # the drawing's label starts with it


def test_the_wiring_list_names_only_parts_on_the_perfboard():
    wiring = (GEN / "hub-wiring.md").read_text()
    refs = set(re.findall(r"\b([A-Z]+\d+)\.\d+\b", wiring))
    board = {part[0] for part in perfboard.PARTS}
    assert refs == board
    for seat in range(1, 9):
        assert f"R{seat}.2" in wiring and f"F{seat}.2" in wiring
    joins = [row.split(" | ")[1].split(", ") for row in wiring.splitlines()
             if row.startswith("| ") and "." in row]
    wires = sum(len(pins) - 1 for pins in joins)
    assert f"{wires} wires" in wiring
    assert f"{wires} wiring-list wires" in (HARDWARE / "README.md").read_text()


def _label_boxes(svg):
    """Every text's box in the drawing: width 0.62 em a character (DejaVu Sans averages
    about 0.55 em on these labels), the font size high, from the text's anchor."""
    boxes = []
    for x, y, size, anchor, text in re.findall(
            r"<text x='([\d.]+)' y='([\d.]+)'[^>]*font-size='([\d.]+)'[^>]*"
            r"text-anchor='(\w+)'>([^<]*)</text>", svg):
        x, y, size = float(x), float(y), float(size)
        width = 0.62 * size * len(text)
        left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
        boxes.append((text, left, y - size, left + width, y))
    return boxes


def _apart(a, b):
    return a[3] <= b[1] or b[3] <= a[1] or a[4] <= b[2] or b[4] <= a[2]


def test_no_label_on_the_perfboard_overlaps_another_or_a_part():
    svg = (GEN / "perfboard-hub.svg").read_text()
    boxes = _label_boxes(svg)
    assert len(boxes) >= len(perfboard.PARTS)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert _apart(a, b), (a[0], b[0])
    outlines = [("part", float(x), float(y), float(x) + float(w), float(y) + float(h))
                for x, y, w, h in re.findall(r"<rect x='([\d.]+)' y='([\d.]+)' "
                                             r"width='([\d.]+)' height='([\d.]+)' rx='3' "
                                             r"fill='#ffffffaa'", svg)]
    assert len(outlines) == len(perfboard.PARTS)
    for label in boxes:
        for outline in outlines:
            assert _apart(label, outline), label[0]


def test_the_wiring_list_names_the_multiplexer_boards_pins():
    wiring = (GEN / "hub-wiring.md").read_text()
    assert "1 VIN, 2 GND, 3 SDA, 4 SCL" in wiring
    assert "9 SD0, 10 SC0" in wiring and "23 SD7, 24 SC7" in wiring
