"""The package as a user installs it: a wheel with every module and the pages from web/."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from wheel_build import build_wheel

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_of_the_source_is_listed():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "companion").rglob("__init__.py")}
    web = ROOT / "web"
    pages = {".".join(("companion", *d.relative_to(ROOT).parts))
             for d in [web, *web.rglob("*")] if d.is_dir() and d.name != "__pycache__"}
    assert found | pages == listed


def test_the_build_says_no_word_of_a_folder_it_was_not_told_of(wheel):
    """setuptools warns, in some 20 lines, of each folder of package data that is not a
    listed package: nine of them once buried `./dev demo`'s address."""
    log = (wheel.parent / "build.log").read_text()
    assert "Building wheel" in log  # the log is setuptools' own output
    assert "is absent from the `packages` configuration" not in log
    assert re.search(r"\w+Warning:", log) is None, "a warning while building"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    return build_wheel(tmp_path_factory.mktemp("wheel"))


def test_the_wheel_ships_the_pages(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    for page in ("table.html", "referee.html", "seat.html", "sim.html"):
        assert f"companion/web/templates/{page}" in names
    assert "companion/web/static/js/live.js" in names
    assert {f"companion/web/i18n/{lang}.json" for lang in ("en", "fr", "de", "es")} <= set(names)


def test_the_dashboard_serves_its_pages_from_the_wheel(wheel, tmp_path):
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    script = (
        "import companion, json\n"
        "from companion.clock import SYSTEM_CLOCK\n"
        "from companion.dashboard.app import create_app\n"
        "from companion.dashboard.settings import DashboardSettings\n"
        "from companion.referee.journal import Journal\n"
        "from companion.referee.settings import RefereeSettings\n"
        "from companion.referee.table import Table\n"
        "t = Table('w', RefereeSettings(pin='2468'), Journal(':memory:'), SYSTEM_CLOCK)\n"
        "c = create_app(t, DashboardSettings()).test_client()\n"
        "r, s = c.get('/'), c.get('/static/js/live.js')\n"
        "print(json.dumps([companion.__file__, r.status_code, r.get_data(as_text=True),"
        " s.status_code]))\n")
    env = {**os.environ, "PYTHONPATH": str(target)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, cwd=tmp_path, check=True)
    import json

    where, status, html, static = json.loads(done.stdout)
    assert where.startswith(str(target)), where  # the wheel's code, not the clone's
    assert status == 200 and static == 200
    assert re.search(r"<title>[^<]+</title>", html)
