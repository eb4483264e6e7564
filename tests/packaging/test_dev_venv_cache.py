"""`./dev` in a new checkout on a machine that already made a venv for the same
`pyproject.toml` and `dev`: the checkout's `.venv` is hard-linked from the one kept under
the user's cache folder, its scripts name the checkout's venv, the project is the
checkout's, and the kept venv is left exactly as it was (README, docs/PERFORMANCE.md
"The test suite")."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KEY = 'eval "$(sed -n "/^venv_cache()/,/^}/p" dev)"; venv_cache "$1"'  # dev's own function


def run(*args: str | Path, cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def where_companion_is(python: Path, cwd: Path, env: dict[str, str]) -> Path:
    out = run(python, "-c", "import companion; print(companion.__file__)", cwd=cwd, env=env)
    return Path(out.strip()).parent.parent


def kept_venv(checkout: Path, extras: str, env: dict[str, str]) -> Path:
    """Where `dev` in `checkout` keeps the venv for `extras`."""
    return Path(run("bash", "-c", KEY, "./dev", extras, cwd=checkout, env=env).strip())


def files_of(venv: Path) -> dict[Path, bytes]:
    """What a reinstall of the project could rewrite: the scripts and the top level and the
    project's records in site-packages."""
    site = next((venv / "lib").glob("python3*/site-packages"))
    found = [*(venv / "bin").iterdir(), *site.iterdir(), *site.glob("*companion*/*")]
    return {p.relative_to(venv): p.read_bytes() for p in found if p.is_file()}


def test_a_new_checkout_links_the_kept_venv_and_leaves_it_as_it_was(tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, timeout=120)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    # the venv `./dev test` made or found on this machine, copied into a cache of the
    # test's own as the demo's (the test's extras hold the demo's)
    made_by_dev = kept_venv(clone, "test,league,cluster", env)
    if not (made_by_dev / ".installed-test,league,cluster").is_file():
        pytest.skip(f"no venv kept by ./dev test on this machine ({made_by_dev})")
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    kept = kept_venv(clone, "demo", env)
    assert kept.parent == tmp_path / "cache" / "cashnguns-companion"
    kept.parent.mkdir(parents=True)
    subprocess.run(["cp", "-a", str(made_by_dev), str(kept)], check=True, timeout=120)
    (kept / ".installed-demo").touch()
    before = files_of(kept)

    usage = run(clone / "dev", "demo", "--help", cwd=clone, env=env)

    assert "usage: companion demo" in usage
    made = clone / ".venv"
    assert (made / "bin" / "companion").read_text().splitlines()[0].startswith(
        f"#!{made}/bin/python")
    assert where_companion_is(made / "bin" / "python", tmp_path, env) == clone
    flask = next((made / "lib").glob("python3*/site-packages/flask/__init__.py"))
    assert flask.stat().st_ino == (kept / flask.relative_to(made)).stat().st_ino  # linked
    assert files_of(kept) == before
