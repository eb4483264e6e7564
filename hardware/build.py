"""Build every generated file of hardware/ from its sources, or check that they are current.

    python hardware/build.py           # rewrite the generated files
    python hardware/build.py --check   # build into a temporary directory and compare

Sources: pinmap.yaml, bom.yaml, geometry.py, ir_calc.py, schematics.py, harness.py,
perfboard.py, power.py, reed.py and cad/*.scad. Generated: BOM.md, the tables in IR.md and
README.md, harness/*.yml and everything in gen/.
Needs schemdraw and wireviz (pip, the project's test extra), and Graphviz, OpenSCAD and
Xvfb (Debian: apt-get install graphviz openscad xvfb xauth).

--check compares text (SVG, Markdown, YAML, Graphviz source) exactly, except the version
comment Graphviz puts in its SVGs; STL files byte for byte (no dates in them, triangles
sorted); PNG renders only for being PNGs of at most 800 x 600, since their pixels depend on
the OpenGL driver.
"""

import argparse
import filecmp
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bom  # noqa: E402
import geometry  # noqa: E402
import harness  # noqa: E402
import ir_calc  # noqa: E402
import perfboard  # noqa: E402
import power  # noqa: E402
import reed  # noqa: E402
import schematics  # noqa: E402

PARTS = ["aperture", "gun_insert", "badge", "pod_body", "pod_lid", "standee_foot"]
PNG_SIZE = (800, 600)
# the one font every drawing measures and draws its text with (fonts/LICENSE): Graphviz and
# OpenSCAD find fonts through fontconfig, which this file limits to the shipped DejaVu Sans
FONTCONFIG = HERE / "fonts" / "fonts.conf"


def load(name):
    return yaml.safe_load((HERE / name).read_text())


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _pins(pins):
    return ", ".join(f"GP{p['gp']}" for p in pins), ", ".join(str(p["pin"]) for p in pins)


def pin_tables(pinmap):
    """README.md's pin tables: the hub, the Pi, and every connector's pins."""
    hub, pi = pinmap["hub"], pinmap["pi"]
    rx = [hub["receivers"][s] for s in sorted(hub["receivers"])]
    rows = [("receivers, seats 1–8 (one register read)",
             f"GP{rx[0]['gp']}–GP{rx[-1]['gp']} (board pins {_pins(rx)[1]})")]
    for signal, pins in (("carrier 38 kHz → 74HC238 G1", [hub["carrier"]]),
                         ("seat address → 74HC238 A0, A1, A2", hub["address"].values()),
                         ("lock LEDs → 74HC595 data, clock, latch", hub["lock"].values()),
                         ("standee reeds ← 74HC165 load, clock, data",
                          hub["inputs"].values()),
                         (f"guns' IMUs ↔ {hub['mux']['part']} SDA, SCL (I2C0)",
                          hub["i2c"].values())):
        pins = list(pins)
        gps, board = _pins(pins)
        rows.append((signal, f"{gps} (board pin{'s' if len(pins) > 1 else ''} {board})"))
    power = hub["power"]
    rows.append(("power", f"VBUS (pin {power['vbus']}) +5 V from the Pi's USB, 3V3(OUT) "
                          f"(pin {power['3v3_out']}), GND (pins "
                          f"{', '.join(map(str, power['ground']))})"))
    lines = ["| board | signal | pins |", "|---|---|---|"]
    lines += [f"| hub Pico | {signal} | {pins} |" for signal, pins in rows]
    for role, what in (("standees", "standee switches, seats 1–8"),
                       ("tilts", "v2 gun tilt switches (tables without a hub), seats 1–8")):
        seats = [pi[role][s] for s in sorted(pi[role])]
        lines.append(f"| Pi | {what} | GPIO {', '.join(str(p['bcm']) for p in seats)} "
                     f"(header {', '.join(str(p['header']) for p in seats)}) |")
    i2c = pi["i2c"]
    lines.append(f"| Pi | guns' IMUs ↔ {pi['mux']['part']} SDA, SCL (I2C1, tables without a "
                 f"hub) | GPIO {i2c['SDA']['bcm']}, {i2c['SCL']['bcm']} (header "
                 f"{i2c['SDA']['header']}, {i2c['SCL']['header']}) |")
    cat, pod = pinmap["cat5e"], pinmap["pod"]
    cable = ["| Cat5e pin | T568B colour | signal |", "|---:|---|---|"]
    cable += [f"| {p} | {cat[p]['colour']} | {cat[p]['signal']} |" for p in sorted(cat)]
    gun = pod["gun_6p6c"]
    cable += ["", "| 6P6C pin (gun cord) | signal |", "|---:|---|"]
    cable += [f"| {p} | {gun[p]} |" for p in sorted(gun)]
    cable += ["", "| 3.5 mm contact (badge cord) | signal |", "|---|---|"]
    cable += [f"| {c} | {n or 'not connected'} |" for c, n in pod["badge_trs"].items()]
    return {"pins": "\n".join(lines), "cables": "\n".join(cable)}


def build_text(out):
    """Everything made by this project's own Python: schematics, tables, BOM, pin views."""
    pinmap = load("pinmap.yaml")
    for name, sheet in schematics.sheets(pinmap).items():
        write(out / "gen" / name, sheet.svg())
    write(out / "gen" / "hub-wiring.md", perfboard.wiring_list(schematics.hub(pinmap)))
    write(out / "gen" / "perfboard-hub.svg", perfboard.svg())
    write(out / "gen" / "pin-views.svg", harness.pin_views(pinmap))
    write(out / "BOM.md", bom.markdown(load("bom.yaml")))
    ir = geometry.fill((HERE / "IR.md").read_text(), geometry.tables())
    write(out / "IR.md", geometry.fill(ir, ir_calc.tables(), "ir_calc"))
    readme = geometry.fill((HERE / "README.md").read_text(), pin_tables(pinmap), "pinmap")
    readme = geometry.fill(readme, {"placement": reed.placement()}, "reed")
    write(out / "README.md", geometry.fill(readme, {"budget": power.markdown()}, "power"))
    for name, h in harness.harnesses(pinmap).items():
        write(out / "harness" / f"{name}.yml", harness.harness_yaml(h))


def build_harnesses(out):
    for path in sorted((out / "harness").glob("*.yml")):
        harness.render(yaml.safe_load(path.read_text()), out / "gen", path.stem)


def openscad(args):
    cmd = ["openscad", *args]
    if shutil.which("xvfb-run") and args[1].endswith(".png"):
        cmd = ["xvfb-run", "-a", *cmd]  # the PNG render needs an X display
    subprocess.run(cmd, check=True, capture_output=True)


def canonical_stl(path):
    """Rewrite a binary STL with its triangles in a fixed order: OpenSCAD's (CGAL's) facet
    order changes from run to run while the geometry does not."""
    data = path.read_bytes()
    (count,) = struct.unpack("<I", data[80:84])
    facets = []
    for i in range(count):
        values = struct.unpack("<12f", data[84 + 50 * i: 84 + 50 * i + 48])
        normal, verts = values[:3], [values[3:6], values[6:9], values[9:12]]
        first = verts.index(min(verts))  # rotate, keeping the winding
        facets.append((*verts[first:], *verts[:first], normal))
    facets.sort()
    body = b"".join(struct.pack("<12fH", *f[3], *f[0], *f[1], *f[2], 0) for f in facets)
    path.write_bytes(data[:84] + body)


def build_cad(out):
    (out / "gen" / "cad").mkdir(parents=True, exist_ok=True)
    for part in PARTS:
        scad = str(HERE / "cad" / f"{part}.scad")
        stl = out / "gen" / "cad" / f"{part}.stl"
        openscad(["-o", str(stl), "--export-format", "binstl", scad])
        canonical_stl(stl)
        openscad(["-o", str(out / "gen" / "cad" / f"{part}.png"), "--autocenter", "--viewall",
                  f"--imgsize={PNG_SIZE[0]},{PNG_SIZE[1]}", "--colorscheme=Tomorrow",
                  "-D", "show_dims=true", scad])


def build(out):
    os.environ["FONTCONFIG_FILE"] = str(FONTCONFIG)  # for dot and openscad, run from here
    build_text(out)
    build_harnesses(out)
    build_cad(out)


def generated(root):
    """The generated files under `root`, relative to it."""
    files = [Path("BOM.md"), Path("IR.md"), Path("README.md")]
    files += [p.relative_to(root) for d in ("gen", "harness")
              for p in sorted((root / d).rglob("*")) if p.is_file()]
    return files


def png_size(path):
    data = path.read_bytes()[:24]
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", data[16:24])


def same(rel, fresh, committed):
    if rel.suffix == ".png":
        size = png_size(committed)
        return size is not None and size[0] <= PNG_SIZE[0] and size[1] <= PNG_SIZE[1]
    if rel.suffix == ".stl":
        return filecmp.cmp(fresh, committed, shallow=False)
    new, old = fresh.read_text(), committed.read_text()
    if rel.suffix == ".svg" and rel.parent.name == "gen" and (HERE / "harness" /
                                                              f"{rel.stem}.yml").exists():
        return harness.without_generator(new) == harness.without_generator(old)
    return new == old


def check():
    """Differences between a fresh build and the committed files: a list of messages."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        build(out)
        problems = []
        fresh, committed = set(generated(out)), set(generated(HERE))
        problems += [f"missing: hardware/{p}" for p in sorted(fresh - committed)]
        problems += [f"no longer generated: hardware/{p}" for p in sorted(committed - fresh)]
        problems += [f"out of date: hardware/{p}" for p in sorted(fresh & committed)
                     if not same(p, out / p, HERE / p)]
        return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="build into a temporary directory and compare")
    if parser.parse_args().check:
        problems = check()
        for p in problems:
            print(p)
        if problems:
            print("run: python hardware/build.py")
            return 1
        print("hardware/: every generated file is current")
        return 0
    for d in ("gen", "harness"):
        shutil.rmtree(HERE / d, ignore_errors=True)
    build(HERE)
    print("hardware/: built")
    return 0


if __name__ == "__main__":
    sys.exit(main())
