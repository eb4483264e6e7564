"""The boards' main.py under the unix port, talking over a real pseudo-terminal.

Only the pins are stand-ins: the world file plays a beacon frame and moves the
switches, and the stand-in watchdog ends the process if the loop ever stops feeding it.
"""

import signal

import pytest
from firmware_harness import BoardOnPty, check_board_line

from companion.wire import irframe, linecodec

GUN_CONFIG = {"id": "g3", "seat": 3, "pins": {"ir": 15, "tilt": 14, "led": 25}}
HUB_CONFIG = {
    "id": "hub",
    "pins": {"beacons": [2, 3, 4, 5, 6, 7, 8, 9], "switches": [10, 11, 12, 13, 14, 15, 16, 17]},
}


@pytest.fixture
def start(micropython, tmp_path):
    boards = []

    def start(board, config, world):
        b = BoardOnPty(micropython, board, tmp_path, config, world)
        boards.append(b)
        return b

    yield start
    for b in boards:
        err = b.close()
        assert "watchdog" not in err and "Traceback" not in err, err


def fields(raw):
    return check_board_line(raw)


def test_gun_reports_aim_and_tilt_and_answers_ping(start):
    world = [
        {"at_ms": 300, "pin": 14, "level": 0},  # raised
        # many beacon rounds: a busy host may preempt the stand-in mid-frame, spoiling some
        {"at_ms": 400, "pin": 15, "pulses": irframe.encode(5), "every_ms": 112, "times": 24},
    ]
    gun = start("gun", GUN_CONFIG, world)
    hello = fields(gun.line())
    assert hello[0] == "HELLO" and hello[3:] == ["1", "gun", "g3", "0.1.0", "3"]
    assert [fields(gun.line())[3:] for _ in range(2)] == [["-"], ["0"]]  # AIM, TILT at boot
    seen = [fields(r) for r in gun.wait_for(lambda f: f[0] == "AIM" and f[3] == "5", 15)]
    assert ["TILT", "1"] in [[f[0], *f[3:]] for f in seen]
    gone = gun.wait_for(lambda f: f[0] == "AIM", 15)  # frames stop: the aim expires
    assert fields(gone[-1])[3] == "-"
    gun.send("PING", "c0ffee")
    assert fields(gun.wait_for(lambda f: f[0] == "PONG")[-1])[3] == "c0ffee"


def test_gun_keeps_running_while_the_host_is_away(start):
    gun = start("gun", GUN_CONFIG, [])
    first = fields(gun.line())
    gun.hang_up()
    gun.reopen()  # the companion comes back; the board was not reset
    gun.send("WHO")
    hello = fields(gun.wait_for(lambda f: f[0] == "HELLO")[-1])
    assert int(hello[1]) > int(first[1]) and int(hello[2]) > int(first[2])
    assert fields(gun.line())[0] == "AIM"


def test_gun_drops_lines_rather_than_block_when_nobody_reads(start):
    gun = start("gun", GUN_CONFIG, [])
    pings = 6000  # ~130 kB of answers: more than the port holds
    gun.send_raw(b"".join(linecodec.encode(["PING", f"{i:x}"]) for i in range(pings)))
    gun.send("PING", "ffffffff")
    lines = gun.wait_for(lambda f: f[0] == "PONG" and f[3] == "ffffffff", timeout=30)
    decoded = [fields(raw) for raw in lines]
    assert sum(f[0] == "PONG" for f in decoded) < pings  # answers were dropped, not queued
    assert decoded[-1][0] == "PONG"  # and the board never stopped reading or answering


def test_ctrl_c_leaves_the_watchdog_fed_for_maintenance(start):
    """What `mpremote` does to reach the REPL must not let the watchdog reset the board."""
    gun = start("gun", GUN_CONFIG, [])
    gun.line()
    gun.proc.send_signal(signal.SIGINT)
    assert gun.proc.wait(timeout=5) == 0  # main.py ended: on a board, the REPL
    assert "timer every 1000 ms" in gun.close()  # half the watchdog's 2 s


def test_hub_reports_standees_and_takes_slots(start):
    standing = [{"at_ms": 0, "pin": p, "level": 0} for p in HUB_CONFIG["pins"]["switches"]]
    world = [*standing, {"at_ms": 200, "pin": 12, "level": 1}]  # seat 3 is laid down
    hub = start("hub", HUB_CONFIG, world)
    hello = fields(hub.line())
    assert hello[3:] == ["1", "hub", "hub", "0.1.0", "0"]
    assert [fields(hub.line())[3:] for _ in range(8)] == [[str(s), "up"] for s in range(1, 9)]
    assert fields(hub.wait_for(lambda f: f[0] == "POST")[-1])[3:] == ["3", "down"]
    hub.send("SLOTS", "20000", "1,2,3,4")
    assert fields(hub.wait_for(lambda f: f[0] in ("OK", "ERR"))[-1])[3:] == ["SLOTS"]
