"""BOM.md from bom.yaml: every line with its total, group subtotals, the table's total
against the budget, and what the Pi Zero 2 W alternative changes."""

from decimal import Decimal


def money(value):
    return Decimal(str(value)).quantize(Decimal("0.01"))


def line_total(item):
    return money(item["qty"] * money(item["each"]))


def total(bom):
    return sum((line_total(i) for g in bom["groups"] for i in g["items"]), Decimal("0.00"))


def alternative_total(bom):
    alt = bom["alternative"]
    removed = sum((line_total(i) for g in bom["groups"] for i in g["items"]
                   if i["part"] in alt["remove"]), Decimal("0.00"))
    added = sum((line_total(i) for i in alt["add"]), Decimal("0.00"))
    return total(bom) - removed + added


def markdown(bom):
    cur = bom["currency"]
    out = ["# Bill of materials, a table of 8 seats", "",
           f"Generated from `bom.yaml` by `python hardware/build.py`. Typical prices in {cur} "
           f"seen on {bom['date']} at the sources named (distributors such as DigiKey and "
           "LCSC, marketplaces such as AliExpress and Amazon, Raspberry Pi approved "
           "resellers), single units or small packs, for budgeting: they move. Shipping and "
           "taxes are not included; marketplace orders over about 10 usually ship free.", ""]
    for group in bom["groups"]:
        out += [f"## {group['name']}", "", "| qty | part | example | each | total | source |",
                "|---:|---|---|---:|---:|---|"]
        sub = Decimal("0.00")
        for i in group["items"]:
            sub += line_total(i)
            out.append(f"| {i['qty']} | {i['part']} | {i['example']} | {money(i['each'])} | "
                       f"{line_total(i)} | {i['source']} |")
        out += [f"| | **subtotal** | | | **{sub}** | |", ""]
    grand = total(bom)
    out += ["## Total", "", f"**{grand} {cur}** for 8 seats, including the Pi, its power "
            f"supply and SD card (budget {bom['budget']}: {money(bom['budget']) - grand} "
            "to spare).", ""]
    alt = bom["alternative"]
    saved = grand - alternative_total(bom)
    out += [f"## {alt['name']}", "", f"Replace {', '.join(alt['remove'])} with:", "",
            "| qty | part | example | each | total | source |", "|---:|---|---|---:|---:|---|"]
    out += [f"| {i['qty']} | {i['part']} | {i['example']} | {money(i['each'])} | "
            f"{line_total(i)} | {i['source']} |" for i in alt["add"]]
    out += ["", f"Total **{alternative_total(bom)} {cur}**: it saves **{saved}**. See "
            "README.md for what it costs in use.", ""]
    return "\n".join(out)
