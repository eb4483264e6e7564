"""A real PostgreSQL server for the league's tests: Debian's, in a temporary folder.

`initdb` refuses to run as root, so when the tests run as root the server runs as the
`postgres` account Debian's package creates (or `nobody`), its folder handed to it.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from waiting import wait_for


def pg_bin(tool: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{tool}"))
    return found[-1] if found else shutil.which(tool)


def _account() -> str | None:
    """Who runs the server: ourselves unless root, else `postgres` or `nobody`."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    pytest.skip("no account but root to run PostgreSQL as")


class Postgres:
    def __init__(self, port: int) -> None:
        initdb, self.pg_ctl = pg_bin("initdb"), pg_bin("pg_ctl")
        if initdb is None or self.pg_ctl is None:
            pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
        self.port, self.account = port, _account()
        self.folder = Path(tempfile.mkdtemp(prefix="league-pg-"))
        if self.account:
            entry = pwd.getpwnam(self.account)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self.data = self.folder / "data"
        self._as_owner([initdb, "-D", str(self.data), "-A", "trust", "-U", "league",
                        "--no-sync", "-E", "UTF8"])
        self._as_owner([self.pg_ctl, "-D", str(self.data), "-l", str(self.folder / "log"),
                        "-w", "-t", "60", "-o",
                        f"-p {port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                        "-c fsync=off -c synchronous_commit=off -c full_page_writes=off",
                        "start"])
        self._databases = 0

    def _as_owner(self, cmd: list[str]) -> None:
        if self.account:
            cmd = ["runuser", "-u", self.account, "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")

    def new_database(self) -> str:
        """A fresh, empty database on this server: its URL."""
        import psycopg

        self._databases += 1
        name = f"league{self._databases}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=league dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql://league@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        try:
            self._as_owner([self.pg_ctl, "-D", str(self.data), "-m", "fast", "-w", "stop"])
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def running_postgres(port: int) -> Iterator[Postgres]:
    server = Postgres(port)
    try:
        wait_for(lambda: os.path.exists(server.folder / f".s.PGSQL.{port}"), 30,
                 "PostgreSQL to listen")
        yield server
    finally:
        server.stop()
