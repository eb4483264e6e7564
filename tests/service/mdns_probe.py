"""Run inside a private network namespace (`unshare -n`, see test_mdns.py): its loopback is
the only interface, so the multicast never leaves this machine. Starts `companion run` with
`mdns: true`, looks for it as a phone would, and prints what it found as one JSON object.

    unshare -n python tests/service/mdns_probe.py FOLDER TABLE
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

from zeroconf import AddressResolver, IPVersion, ServiceBrowser, ServiceStateChange, Zeroconf

from companion import config
from companion.referee.access import link_token
from companion.referee.journal import Journal
from companion.service import checks

PIN = "2468"
PORT = 8080  # the namespace's own ports: nothing else listens there


def write_config(folder: Path, table: str) -> Path:
    config = folder / "table.yaml"
    config.write_text(
        f"table: {table}\nmqtt:\n  state_dir: {folder / 'broker'}\n"
        f"sensors:\n  sim:\n    guns: [1, 2, 3, 4]\n    link_dir: {folder / 'ports'}\n"
        f"referee:\n  pin: \"{PIN}\"\n  journal: {folder / 'journal.sqlite3'}\n"
        f"dashboard:\n  host: 127.0.0.1\n  port: {PORT}\n  mdns: true\n")
    return config


def browse(zc: Zeroconf, events: queue.Queue) -> ServiceBrowser:
    def on_change(zeroconf: Zeroconf, service_type: str, name: str,
                  state_change: ServiceStateChange) -> None:
        events.put((state_change.name, name))

    return ServiceBrowser(zc, "_http._tcp.local.", handlers=[on_change])


def fetch(opener: urllib.request.OpenerDirector, url: str, body: dict | None = None,
         pin: bool = False) -> Any:
    request = urllib.request.Request(url, None if body is None else json.dumps(body).encode(),
                                     {"Content-Type": "application/json",
                                      **({"X-Table-Pin": PIN} if pin else {})})
    with opener.open(request, timeout=10) as response:
        data = response.read()
    return data.decode() if url.endswith(".svg") else json.loads(data)


def doctor(config_file: Path) -> tuple[list[str], list[str]]:
    """`companion doctor`'s check of the name, looking on loopback."""
    return checks._name(config.load(config_file),
                        lambda name: checks.addresses_of(name, ["127.0.0.1"]))


def probe(folder: Path, table: str) -> dict[str, Any]:
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    log = (folder / "run.log").open("w")
    config_file = write_config(folder, table)
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--config",
                             str(config_file)], stdout=log, stderr=log,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    events: queue.Queue = queue.Queue()
    found: dict[str, Any] = {}
    try:
        browser = browse(zc, events)
        change, name = events.get(timeout=30)
        info = zc.get_service_info("_http._tcp.local.", name, timeout=5000)
        assert info is not None, name
        found["service"] = {"change": change, "name": name, "server": info.server,
                            "port": info.port, "addresses": info.parsed_addresses(),
                            "properties": {k.decode(): (v or b"").decode()
                                           for k, v in info.properties.items()}}
        resolver = AddressResolver(f"cashnguns-{table.replace('_', '-')}.local.")
        found["resolved"] = resolver.parsed_addresses() if resolver.request(zc, 5000) else []
        base = f"http://{found['resolved'][0]}:{PORT}"
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(CookieJar()))
        state = fetch(opener, base + "/api/control", pin=True)
        fetch(opener, base + "/api/command", {"type": "new_game", "version": state["version"],
                                             "players": ["Ana", "Bob", "Cyd", "Dee"]},
             pin=True)
        game = fetch(opener, base + "/api/control", pin=True)["game"]
        journal = Journal(folder / "journal.sqlite3")  # the seat links' kept secret
        found["phone"] = f"/seat/1?token={link_token(journal.secret(), table, game, 1)}"
        journal.close()
        fetch(opener, base + "/api/login", {"pin": PIN})
        found["qr"] = fetch(opener, base + "/referee/qr/1.svg")
        found["doctor_running"] = doctor(config_file)
        proc.terminate()
        found["exit"] = proc.wait(30)
        found["after_stop"] = events.get(timeout=10)  # the goodbye: it is gone at once
        browser.cancel()
        found["doctor_stopped"] = doctor(config_file)
    finally:
        if proc.poll() is None:
            proc.kill()
        zc.close()
        log.close()
    return found


if __name__ == "__main__":
    print(json.dumps(probe(Path(sys.argv[1]), sys.argv[2])))
