"""The dashboard found by name: `companion run` announces cashnguns-<table>.local and its
`_http._tcp` service, a zeroconf browser finds and resolves them, the phones' QR codes carry
the name, and the goodbye on stop removes it. All of it in a private network namespace, on
its loopback alone: nothing goes out of this machine. `companion doctor`'s check of the name
runs there too, while the table runs and after it stopped."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
import segno

from companion import config
from companion.config import ConfigError
from companion.service.mdns import addresses_for, announced_url, host_name

PROBE = Path(__file__).parent / "mdns_probe.py"


def test_the_dashboard_is_announced_by_name_and_the_phones_qr_codes_use_it(tmp_path):
    if subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode != 0:
        pytest.skip("cannot make a private network namespace here (unshare -n needs root)")
    done = subprocess.run(["unshare", "-n", sys.executable, str(PROBE), str(tmp_path),
                           "cafe_1"], capture_output=True, text=True, timeout=180)
    run_log = (tmp_path / "run.log").read_text() if (tmp_path / "run.log").exists() else ""
    assert done.returncode == 0, done.stderr[-3000:] + run_log[-3000:]
    found = json.loads(done.stdout)
    name = "Cash 'n Guns cafe_1._http._tcp.local."
    assert found["service"] == {
        "change": "Added", "name": name, "server": "cashnguns-cafe-1.local.", "port": 8080,
        "addresses": ["127.0.0.1"], "properties": {"path": "/", "table": "cafe_1"}}
    assert found["resolved"] == ["127.0.0.1"]
    link = "http://cashnguns-cafe-1.local:8080" + found["phone"]
    expected = io.BytesIO()
    segno.make(link, error="m").save(expected, kind="svg", scale=5, border=2, dark="#111")
    assert found["qr"] == expected.getvalue().decode()
    assert found["exit"] == 0
    assert found["after_stop"] == ["Removed", name]
    assert found["doctor_running"] == [["mDNS: cashnguns-cafe-1.local answers from 127.0.0.1"],
                                       []]
    assert found["doctor_stopped"] == [[], [
        "nobody answers for cashnguns-cafe-1.local on this network: the service is not "
        "running, or its announcement failed (journalctl -u cashnguns -g mDNS), or this "
        "network blocks multicast (then set dashboard.public_url)"]]
    assert "mDNS: the dashboard is http://cashnguns-cafe-1.local:8080 (on 127.0.0.1)" in run_log


def test_names_and_addresses():
    assert host_name("cafe_table-2") == "cashnguns-cafe-table-2"
    assert announced_url("demo", 8080) == "http://cashnguns-demo.local:8080"
    assert addresses_for("127.0.0.1") == ["127.0.0.1"]
    assert addresses_for("::") == []  # IPv6 binds are not announced
    assert "127.0.0.1" not in addresses_for("0.0.0.0")  # others cannot reach loopback


def test_mdns_needs_a_fixed_port():
    with pytest.raises(ConfigError, match=r"dashboard\.mdns: needs a fixed port"):
        config.parse("dashboard:\n  port: 0\n  mdns: true\n", "table.yaml")
    assert config.parse("dashboard:\n  mdns: true\n", "t.yaml")["dashboard"].mdns
