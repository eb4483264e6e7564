"""The bill of materials: landed (parts, consumables, one shipping charge per supplier)
within budget, BOM.md adding up line by line, and the parts the design needs in it."""

import re
from decimal import Decimal

import bom
import yaml
from hardware_dir import HARDWARE

BOM = yaml.safe_load((HARDWARE / "bom.yaml").read_text())
TEXT = (HARDWARE / "BOM.md").read_text()
LINE = re.compile(r"^\| (\d+) \| [^|]+ \| [^|]+ \| ([\d.]+) \| ([\d.]+) \| (\w+) \|", re.M)
PARTS = [i["part"] for g in BOM["groups"] for i in g["items"]]


def _main_lines():
    return LINE.findall(TEXT[:TEXT.index("## Orders and shipping")])


def test_the_landed_total_in_bom_md_is_its_lines_plus_one_shipping_per_supplier():
    lines = _main_lines()
    assert len(lines) == len(PARTS)
    for qty, each, total, _ in lines:
        assert Decimal(qty) * Decimal(each) == Decimal(total)
    suppliers = {s for *_, s in lines}
    for region in ("us", "eu"):
        shipping = sum(Decimal(str(BOM["suppliers"][s]["shipping"][region])) for s in suppliers)
        assert shipping > 0
        landed = sum(Decimal(t) for _, _, t, _ in lines) + shipping
        assert f"{landed} to the {region.upper()}" in TEXT
    worst = max(bom.landed(BOM, r) for r in ("us", "eu"))
    assert f"**{worst} USD landed** for 8 seats" in TEXT


def test_the_table_of_8_lands_within_150_with_the_pi_its_supply_and_sd_card():
    assert any(p.startswith("Raspberry Pi Zero 2 W") or p.startswith("Raspberry Pi 4")
               for p in PARTS)
    assert any("power supply" in p for p in PARTS)
    assert any("microSD" in p for p in PARTS)
    assert BOM["budget"] == 150
    assert bom.worst_landed(BOM) <= 150


def test_everything_a_builder_needs_is_bought():
    assert any("Pico H" in p and "headers" in p for p in PARTS)  # the plain Pico has none
    assert any("female header" in p for p in PARTS)
    assert any("male pin header" in p for p in PARTS)  # the RJ45 boards' headers
    for consumable in ("solder", "hook-up wire", "heat-shrink", "PLA filament"):
        assert any(consumable in p for p in PARTS), consumable
    assert any("IMU" in p for p in PARTS) and any("TCA9548A" in i["example"] or "multiplexer"
                                                   in i["part"] for g in BOM["groups"]
                                                   for i in g["items"])
    assert not any("tilt" in p.lower() for p in PARTS)  # replaced by the IMU
    for part in ("AO3401A", "MF-R010"):  # the pods' protection
        assert any(part in i["example"] for g in BOM["groups"] for i in g["items"]), part


def test_prices_are_dated_and_every_line_names_a_supplier_with_shipping():
    assert str(BOM["date"]) in TEXT
    for item in bom.items(BOM) + [i for a in BOM["alternatives"] for i in a["add"]]:
        ship = BOM["suppliers"][item["from"]]["shipping"]
        assert ship["us"] >= 0 and ship["eu"] >= 0, item["part"]


def test_the_pi_4_costs_more_and_bom_md_says_by_how_much():
    (pi4,) = [a for a in BOM["alternatives"] if "Pi 4" in a["name"]]
    swapped = bom.with_alternative(BOM, pi4)
    assert len(swapped) == len(bom.items(BOM)) - len(pi4["remove"]) + len(pi4["add"])
    saved = bom.worst_landed(BOM, swapped) - bom.worst_landed(BOM)
    assert saved > 0
    assert f"+{saved}." in TEXT


def test_the_docs_cite_the_landed_totals():
    total = str(bom.worst_landed(BOM))
    readme = (HARDWARE / "README.md").read_text()
    assert f"**{total} USD landed for 8 seats" in readme
    assert f"{total} USD landed for 8 players" in (HARDWARE.parent / "README.md").read_text()
    pi4, coiled = BOM["alternatives"]
    for alt in (pi4, coiled):
        landed = bom.worst_landed(BOM, bom.with_alternative(BOM, alt))
        assert f"({landed} landed)" in readme, alt["name"]
    saved = bom.worst_landed(BOM, bom.with_alternative(BOM, pi4)) - bom.worst_landed(BOM)
    assert f"The Pi Zero 2 W saves {saved} USD" in readme


def test_building_one_seat_first_costs_one_more_marketplace_shipping():
    extra = bom.bench_first(BOM) - bom.worst_landed(BOM)
    assert extra == max(Decimal(str(v)) for v in BOM["suppliers"]["ali"]["shipping"].values())
    assert f"**{bom.bench_first(BOM)} USD landed**" in TEXT
    assert str(bom.bench_first(BOM)) in (HARDWARE / "README.md").read_text()
