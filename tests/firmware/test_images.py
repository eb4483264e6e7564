"""Every firmware file compiles with mpy-cross, and the compiled images run."""

import json
import subprocess

import pytest
from firmware_harness import FIRMWARE, HERE, ROOT, BoardOnPty, check_board_line, load_build

build = load_build()
BOARD_SOURCES = sorted(p for p in FIRMWARE.rglob("*.py") if p.name != "build.py")
WIRE_SOURCES = sorted((ROOT / "companion" / "wire").glob("*.py"))
IMAGE_BUDGET = 20 * 1024  # bytes; a Pico has about 1.4 MB of flash for files


@pytest.mark.parametrize("source", BOARD_SOURCES + WIRE_SOURCES, ids=lambda p: p.name)
def test_file_compiles_with_mpy_cross(source, tmp_path):
    assert build.compile_mpy(source, tmp_path / "out.mpy").stat().st_size > 0


def test_every_board_module_is_in_an_image():
    in_images = {p for board in build.BOARDS for p in build.lib_sources(board)}
    modules = {p for p in BOARD_SOURCES if p.name != "main.py"}
    assert modules - in_images == set()


def test_the_shared_modules_import_flat_from_compiled_files(micropython, tmp_path):
    """hubcore and proto try a relative import first: flat in /lib it must fail over."""
    lib = tmp_path / "lib"
    for source in build.lib_sources("hub"):
        build.compile_mpy(source, lib / (source.stem + ".mpy"))
    script = tmp_path / "probe.py"
    script.write_text("import hubcore, proto\nprint(hubcore.aimrule.HOLD_MS, proto.PROTO)\n")
    done = subprocess.run([micropython.binary, str(script)], capture_output=True, text=True,
                          env=micropython.env([HERE / "stubs", lib]), timeout=30)
    assert done.stdout.split() == ["500", "3"], done.stderr


@pytest.mark.parametrize("board", sorted(build.BOARDS))
def test_compiled_image_fits_and_runs(board, micropython, tmp_path):
    image = tmp_path / "image"
    image.mkdir()
    sizes = build.build(board, image)
    assert sum(sizes.values()) < IMAGE_BUDGET, build.report(board, sizes)
    config = json.loads((image / "config.json").read_text())
    run = tmp_path / "run"
    run.mkdir()
    b = BoardOnPty(micropython, board, run, config, [], image=image)
    try:
        hello = check_board_line(b.line())
    finally:
        b.close()
    assert hello[0] == "HELLO" and hello[4] == board


def test_the_flashing_instructions_copy_every_file_of_the_hub():
    readme = (FIRMWARE / "README.md").read_text()
    for source in build.lib_sources("hub"):
        assert str(source.relative_to(ROOT)) in readme, source
