"""BOM.md from bom.yaml: every line with its total, group subtotals, one order per supplier
with its shipping, the landed total for a hobbyist in the US and in the EU against the
budget, and what each alternative changes."""

from decimal import Decimal

REGIONS = {"us": "the US", "eu": "the EU"}


def money(value):
    return Decimal(str(value)).quantize(Decimal("0.01"))


def line_total(item):
    return money(item["qty"] * money(item["each"]))


def items(bom):
    return [i for g in bom["groups"] for i in g["items"]]


def orders(parts):
    """Each supplier's parts total, for the lines given."""
    out = {}
    for item in parts:
        out[item["from"]] = out.get(item["from"], Decimal("0.00")) + line_total(item)
    return out


def landed(bom, region, parts=None):
    """Parts plus one shipping charge per supplier ordered from, before sales tax or VAT."""
    by_supplier = orders(items(bom) if parts is None else parts)
    shipping = sum((money(bom["suppliers"][s]["shipping"][region]) for s in by_supplier),
                   Decimal("0.00"))
    return sum(by_supplier.values(), Decimal("0.00")) + shipping


def worst_landed(bom, parts=None):
    return max(landed(bom, r, parts) for r in REGIONS)


def bench_first(bom):
    """Landed, worst region, when one seat's marketplace parts are ordered first and the
    other seven's after the bench (README.md): one more AliExpress shipping charge."""
    extra = max(money(v) for v in bom["suppliers"]["ali"]["shipping"].values())
    return worst_landed(bom) + extra


def with_alternative(bom, alt):
    """The BOM's lines with one alternative's swap made."""
    return [i for i in items(bom) if i["part"] not in alt["remove"]] + alt["add"]


def _table(lines, suppliers):
    out = ["| qty | part | example | each | total | from |", "|---:|---|---|---:|---:|---|"]
    out += [f"| {i['qty']} | {i['part']} | {i['example']} | {money(i['each'])} | "
            f"{line_total(i)} | {i['from']} |" for i in lines]
    unknown = sorted({i["from"] for i in lines} - set(suppliers))
    if unknown:
        raise KeyError(f"bom.yaml: no supplier {', '.join(unknown)}")
    return out


def markdown(bom):
    cur, suppliers = bom["currency"], bom["suppliers"]
    out = ["# Bill of materials, a table of 8 seats", "",
           f"Generated from `bom.yaml` by `python hardware/build.py`. Typical prices in {cur} "
           f"dated {bom['date']}: estimates from the suppliers' usual catalogue prices for "
           "single units or the smallest pack, not a quote; they move, so check them when "
           f"ordering. Each part comes from one of {len(suppliers)} suppliers, one order each, "
           "and each order pays its shipping.", ""]
    for group in bom["groups"]:
        out += [f"## {group['name']}", "", *_table(group["items"], suppliers)]
        sub = sum((line_total(i) for i in group["items"]), Decimal("0.00"))
        out += [f"| | **subtotal** | | | **{sub}** | |", ""]
    by_supplier = orders(items(bom))
    out += ["## Orders and shipping", "",
            "| from | supplier | parts | shipping to the US | shipping to the EU |",
            "|---|---|---:|---:|---:|"]
    for key, parts in by_supplier.items():
        ship = suppliers[key]["shipping"]
        out.append(f"| {key} | {suppliers[key]['name']} | {parts} | {money(ship['us'])} | "
                   f"{money(ship['eu'])} |")
    us, eu = landed(bom, "us"), landed(bom, "eu")
    vat = money(eu * Decimal(str(bom["vat"])))
    out += ["", "## Landed total", "",
            f"**{worst_landed(bom)} {cur} landed** for 8 seats, including the Pi, its power "
            f"supply and SD card, the consumables and the shipping of every order "
            f"({us} to the US, {eu} to the EU; budget {bom['budget']}: "
            f"{money(bom['budget']) - worst_landed(bom)} to spare). Before taxes: a US "
            f"state's sales tax is added at checkout, and an EU buyer pays VAT on top "
            f"(at {int(100 * bom['vat'])} %: {vat}, so {eu + vat} with VAT). Tools (README.md) "
            "and a 3-D printer are not included.", "",
            f"Building one seat first (README.md) splits the AliExpress order in two: "
            f"**{bench_first(bom)} {cur} landed**, over the budget by "
            f"{bench_first(bom) - money(bom['budget'])}, the price of finding a wrong part "
            "before buying eight.", ""]
    for alt in bom["alternatives"]:
        swapped = with_alternative(bom, alt)
        change = worst_landed(bom, swapped) - worst_landed(bom)
        out += [f"## {alt['name']}", "", f"Replace {'; '.join(alt['remove'])} with:", ""]
        out += _table(alt["add"], suppliers)
        out += ["", f"Landed **{worst_landed(bom, swapped)} {cur}**: "
                f"{'+' if change >= 0 else ''}{change}.", ""]
    return "\n".join(out)
