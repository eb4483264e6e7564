"""One command builds hardware/, and the committed drawings are what it builds now."""

import os
import shutil
import subprocess
import sys

import pytest
from hardware_dir import HARDWARE

TOOLS = ("openscad", "dot", "xvfb-run")


@pytest.mark.timeout(300)
def test_committed_generated_files_are_current():
    pytest.importorskip("schemdraw")
    pytest.importorskip("wireviz")
    missing = [t for t in TOOLS if not shutil.which(t)]
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (apt-get install graphviz openscad xvfb xauth)")
    run = subprocess.run([sys.executable, str(HARDWARE / "build.py"), "--check"],
                         capture_output=True, text=True, timeout=280)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "every generated file is current" in run.stdout


def test_every_printed_part_has_an_stl_and_a_small_png():
    import build

    for part in build.PARTS:
        assert (HARDWARE / "cad" / f"{part}.scad").exists(), part
        stl = (HARDWARE / "gen" / "cad" / f"{part}.stl").read_bytes()
        assert len(stl) > 84 and (len(stl) - 84) % 50 == 0, part  # binary STL, whole facets
        width, height = build.png_size(HARDWARE / "gen" / "cad" / f"{part}.png")
        assert 0 < width <= 800 and 0 < height <= 600, part


def test_the_docs_link_only_to_files_that_exist():
    import re

    for doc in ("README.md", "IR.md"):
        for target in re.findall(r"\]\(([^)#:]+)\)", (HARDWARE / doc).read_text()):
            assert (HARDWARE / target).exists(), (doc, target)


def _fonts(env=None):
    run = subprocess.run(["fc-list", "--format", "%{family[0]}|%{file}\n"],
                         capture_output=True, text=True, check=True, env=env)
    return [line.split("|") for line in run.stdout.splitlines()]


def test_the_drawings_see_only_the_shipped_font_whatever_the_machine_has():
    if not shutil.which("fc-list"):
        pytest.skip("needs fontconfig (installed with graphviz)")
    import build

    installed = {family for family, _ in _fonts()}
    # the maker's machine of the report: Graphviz installed with its recommends
    assert "Liberation Sans" in installed, "apt-get install fonts-liberation (./dev test does)"
    pinned = _fonts({**os.environ, "FONTCONFIG_FILE": str(build.FONTCONFIG)})
    assert pinned == [["DejaVu Sans", str(HARDWARE / "fonts" / "DejaVuSans.ttf")]]
    match = subprocess.run(["fc-match", "--format", "%{file}", "Arial"], capture_output=True,
                           text=True, check=True,
                           env={**os.environ, "FONTCONFIG_FILE": str(build.FONTCONFIG)})
    assert match.stdout == str(HARDWARE / "fonts" / "DejaVuSans.ttf")
    assert "Bitstream Vera" in (HARDWARE / "fonts" / "LICENSE").read_text()
    for name in ("seat-cable", "gun-cord", "badge-cord"):
        assert 'fontname="DejaVu Sans"' in (HARDWARE / "gen" / f"{name}.gv").read_text(), name
