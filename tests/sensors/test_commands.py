"""`companion sensors` and `companion doctor` as a user (or another test) runs them."""

import json
import signal
import subprocess
import sys
from contextlib import contextmanager

from companion.bus.topics import Topics


def write_config(tmp_path, mosquitto, table, extra=""):
    path = tmp_path / "table.yaml"
    path.write_text(f"""table: {table}
mqtt: {{url: '{mosquitto.url}'}}
sensors:
  filters: {{hold_ms: 100}}
  sim:
    guns: [1, 2]
    hand: {{ideal: true}}
    link_dir: {tmp_path / 'links'}
{extra}""")
    return path


def companion(*args, **kw):
    return subprocess.Popen([sys.executable, "-m", "companion.cli", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


@contextmanager
def sensors_running(path, obs, topics):
    """`companion sensors` with its simulated hub online; stopped by SIGTERM, cleanly."""
    bridge = companion("sensors", "--config", str(path))
    try:
        obs.expect(topics.device("hub", "availability"), lambda p: p == "online", timeout=15)
        yield bridge
    finally:
        bridge.send_signal(signal.SIGTERM)
        assert bridge.wait(10) == 0


def sim(path, *command):
    """The simulator's command line, as a builder types it."""
    subprocess.run([sys.executable, "-m", "companion.sensors.sim", "--config", str(path),
                    *command], check=True, timeout=30)


def test_sensors_runs_until_sigterm_and_leaves_offline(tmp_path, mosquitto, observe):
    topics = Topics("cmd-sensors")
    obs = observe(mosquitto.port, topics.all)
    proc = companion("sensors", "--config", str(write_config(tmp_path, mosquitto, topics.table)))
    try:
        obs.expect(topics.status, lambda p: p == "online", timeout=15)
        aim = obs.expect(topics.gun(1, "aim"), timeout=5)
        assert json.loads(aim)["target"] is None
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
        assert obs.expect(topics.status, lambda p: p == "offline") == "offline"
        assert "sensors running" in proc.stderr.read()
    finally:
        proc.kill()


def test_a_config_error_exits_2_naming_file_line_and_key(tmp_path, mosquitto):
    path = write_config(tmp_path, mosquitto, "cmd-bad", "  serial:\n    - port: /dev/x\n"
                        "      slots: {slot_us: 10000, seats: [1]}\n")
    proc = companion("sensors", "--config", str(path))
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 2
    assert f"{path}:11: sensors.serial[0].slots.slot_us: must be from 1500 to 5000" in err


def test_doctor_reports_live_state_and_what_is_missing(tmp_path, mosquitto, observe):
    topics = Topics("cmd-doctor")
    extra = "  serial:\n    - {port: /dev/nonexistent-tty, name: hub}\n"
    path = write_config(tmp_path, mosquitto, topics.table, extra)
    bridge = companion("sensors", "--config", str(path))
    try:
        observe(mosquitto.port, topics.device("hub", "stat")).expect(topics.device("hub", "stat"),
                                                                  timeout=15)
        doctor = companion("doctor", "--config", str(path))
        out, _ = doctor.communicate(timeout=30)
        assert doctor.returncode == 1, out
        assert "live state from the running sensor bridge" in out
        assert "seat 1: standee up, gun aims at nobody, lowered" in out
        assert "rounds" in out and "noise 0" in out  # the simulated hub's STAT
        assert "seat 2: its gun has not seen any badge yet" in out
        assert "hub hub (/dev/nonexistent-tty): never answered" in out
    finally:
        bridge.send_signal(signal.SIGINT)
        assert bridge.wait(10) == 0


def test_doctor_probes_the_sensors_when_no_bridge_runs(tmp_path, mosquitto):
    path = write_config(tmp_path, mosquitto, "cmd-probe")
    doctor = companion("doctor", "--config", str(path), "--listen", "0.5")
    out, _ = doctor.communicate(timeout=30)
    assert doctor.returncode == 0, out
    assert "no sensor bridge running" in out and "nothing missing" in out


def test_the_simulator_cli_acts_on_a_running_table(tmp_path, mosquitto, observe):
    topics = Topics("cmd-sim")
    path = write_config(tmp_path, mosquitto, topics.table)
    obs = observe(mosquitto.port, topics.all)
    with sensors_running(path, obs, topics):
        cli = subprocess.run([sys.executable, "-m", "companion.sensors.sim", "--config",
                              str(path), "aim", "1", "2"], capture_output=True, timeout=30)
        assert cli.returncode == 0, cli.stderr
        aim = obs.expect(topics.gun(1, "aim"), lambda p: json.loads(p)["target"] == 2)
        assert json.loads(aim)["device"] == "hub"
        bad = subprocess.run([sys.executable, "-m", "companion.sensors.sim", "--config",
                              str(path), "fire", "1"], capture_output=True, text=True,
                             timeout=30)
        assert bad.returncode == 2 and "unknown command 'fire'" in bad.stderr


def test_doctor_reports_a_silent_hub_and_prints_the_ir_matrix(tmp_path, mosquitto, observe):
    topics = Topics("cmd-matrix")
    path = write_config(tmp_path, mosquitto, topics.table)
    obs = observe(mosquitto.port, topics.all)
    with sensors_running(path, obs, topics):
        sim(path, "aim", "1", "2")
        sim(path, "aim", "2", "1")
        obs.expect(topics.gun(2, "aim"), lambda p: json.loads(p)["target"] == 1)
        matrix = companion("doctor", "--config", str(path), "--ir-matrix")
        out, _ = matrix.communicate(timeout=30)
        assert matrix.returncode == 0, out
        rows = out.splitlines()[-2:]
        assert rows[0].split()[:2] == ["1", "."] and rows[0].split()[2].endswith("%")
        assert rows[1].split()[1].endswith("%") and rows[1].split()[2] == "."
        sim(path, "unplug", "2")  # seat 2's cable comes out
        obs.expect(topics.standee_posture(2), lambda p: json.loads(p)["posture"] == "down")
        obs.expect(topics.gun(2, "raised"), lambda p: json.loads(p)["raised"] is False)
        doctor = companion("doctor", "--config", str(path))
        out, _ = doctor.communicate(timeout=30)
        assert "seat 2: standee down and gun lowered, as a seat cable that is out" in out, out
        assert "seat 1: standee down" not in out, out
        sim(path, "hang")
        obs.expect(topics.device("hub", "availability"), lambda p: p == "offline", timeout=5)
        doctor = companion("doctor", "--config", str(path))
        out, _ = doctor.communicate(timeout=30)
        assert doctor.returncode == 1 and "hub sim-hub: offline (silent)" in out, out


def test_doctor_warns_that_a_gun_wired_to_the_pi_is_read_by_a_tilt_switch(tmp_path, mosquitto):
    """Pi-direct guns keep v2's ball tilt switch (docs/SENSORS.md): the set-up check says
    what that costs, without counting it as missing."""
    path = write_config(tmp_path, mosquitto, "cmd-tilt", "  gpio:\n    pin_factory: mock\n"
                        "    tilts:\n      - {seat: 3, pin: 17}\n")
    doctor = companion("doctor", "--config", str(path), "--listen", "0.5")
    out, _ = doctor.communicate(timeout=30)
    assert "seat 3: its gun is read by a ball tilt switch on the Pi (GPIO 17), not by an " \
           "IMU: a standing player aiming down at a seated neighbour may read lowered" in out
    assert "seat 1: its gun is read by a ball tilt switch" not in out  # the hub's IMU
