"""The bill of materials stays within budget, and BOM.md adds up."""

import re
from decimal import Decimal

import bom
import yaml
from hardware_dir import HARDWARE

BOM = yaml.safe_load((HARDWARE / "bom.yaml").read_text())
TEXT = (HARDWARE / "BOM.md").read_text()


def test_the_table_of_8_costs_at_most_the_budget_including_the_pi():
    parts = [i["part"] for g in BOM["groups"] for i in g["items"]]
    assert any("Raspberry Pi 4" in p for p in parts)
    assert any("power supply" in p for p in parts)
    assert any("microSD" in p for p in parts)
    assert BOM["budget"] == 150
    assert bom.total(BOM) <= 150


def test_the_total_in_bom_md_is_the_sum_of_its_lines():
    lines = re.findall(r"^\| (\d+) \| [^|]+ \| [^|]+ \| ([\d.]+) \| ([\d.]+) \|", TEXT, re.M)
    alternative = TEXT.index("## Raspberry Pi Zero 2 W")
    main = re.findall(r"^\| (\d+) \| [^|]+ \| [^|]+ \| ([\d.]+) \| ([\d.]+) \|",
                      TEXT[:alternative], re.M)
    assert len(main) == sum(len(g["items"]) for g in BOM["groups"]) < len(lines)
    for qty, each, total in main:
        assert Decimal(qty) * Decimal(each) == Decimal(total)
    grand = sum(Decimal(t) for _, _, t in main)
    assert f"**{grand} USD** for 8 seats" in TEXT
    assert grand == bom.total(BOM)


def test_prices_are_dated_and_sourced():
    assert str(BOM["date"]) == "2026-11-22"
    assert "2026-11-22" in TEXT and "typical" in TEXT.lower()
    for item in [i for g in BOM["groups"] for i in g["items"]] + BOM["alternative"]["add"]:
        assert item["source"], item["part"]


def test_the_pi_zero_2_w_swap_saves_money():
    assert bom.alternative_total(BOM) < bom.total(BOM)
    saved = bom.total(BOM) - bom.alternative_total(BOM)
    assert f"it saves **{saved}**" in TEXT
