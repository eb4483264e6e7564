"""The hub's main.py under the unix port, talking over a real pseudo-terminal.

Only the hardware is a stand-in: the PIO slot clock runs on a thread of its own (as
the state machine and its interrupt run beside the main loop), the world file says
which receivers see which badge, and the stand-in watchdog ends the process if the
loop ever stops feeding it.
"""

import itertools
import json
import signal
import time

import pytest
from firmware_harness import FIRMWARE, BoardOnPty, check_board_line

from companion.wire import linecodec

CONFIG = json.loads((FIRMWARE / "config" / "hub.json").read_text())
SEEN_3_BY_1 = {"at_ms": 0, "ir": {"3": 1}}  # gun 1 sees seat 3's badge
LEVEL = [0, 0, 0, 0, 0, 16393]  # an IMU at rest, level: 1 g on z (raw counts)
ALL_UP = [{"at_ms": 0, "inputs": 0},  # every standee standing (closed), every gun level
          {"at_ms": 0, "imu": {str(s): LEVEL for s in range(1, 9)}}]


@pytest.fixture
def start(micropython, tmp_path):
    boards = []

    def start(world, config=CONFIG):
        b = BoardOnPty(micropython, "hub", tmp_path, config, world)
        boards.append(b)
        return b

    yield start
    for b in boards:
        err = b.close()
        assert "watchdog" not in err and "Traceback" not in err, err


def fields(raw):
    return check_board_line(raw)


def on_time(lines) -> int:
    """How many of the last SEEN rounds came one after the other 9 slots of 2 ms apart
    (16 to 22 ms in the hub's stamps), counted back from the newest."""
    stamps = [int(f[2]) for f in map(fields, lines) if f[0] == "SEEN"]
    steps = [b - a for a, b in itertools.pairwise(stamps)]
    count = 0
    for step in reversed(steps):
        if not 16 <= step <= 22:
            break
        count += 1
    return count


def seen_rounds(lines):
    return [int(f[3]) for f in map(fields, lines) if f[0] == "SEEN"]


@pytest.mark.parametrize("stopped", [False, True], ids=["run", "stopped-booting"])
def test_hub_says_hello_and_reports_the_rounds_its_slot_clock_plays(start, stopped):
    """Stopped: a busy host runs nothing of the board's process for a second as it boots
    (0.1 s after it started, wherever in its boot that falls), before it reads the guns.
    On a board's clock, which stood still, gun 2 is still level when first read and then
    seen lowered; a loaded run's board, its clock on the host's, read it first after the
    world's 400 ms, lowered from the start, so never said it went down (`GUN` is sent on a
    change of up or down)."""
    down = {str(s): LEVEL if s != 2 else [0, 0, 0, -15410, 0, 5607] for s in range(1, 9)}
    hub = start([SEEN_3_BY_1, *ALL_UP, {"at_ms": 400, "imu": down}])  # gun 2 lowered 70°
    if stopped:
        time.sleep(0.1)  # where the fault falls, not a wait for anything
        hub.stop_for(1.0)
    hello = [fields(hub.line()) for _ in range(18)]
    assert hello[0][3:] == ["3", "hub", "hub", "0.3.0", "0"]
    assert [f[3:5] for f in hello[1:17:2]] == [[str(s), "down"] for s in range(1, 9)]
    assert [f[3:] for f in hello[2:17:2]] == [[str(s), "up"] for s in range(1, 9)]
    assert hello[17][3:] == ["SLOTS", "2000", "1,2,3,4,5,6,7,8"][1:]
    # (the world lowers it at 400 ms of the board's clock: the wait is only a net)
    lines = hub.wait_for(lambda f: f[0] == "GUN" and f[4] == "down", timeout=20)
    assert fields(lines[-1])[3:5] == ["2", "down"] and int(fields(lines[-1])[5]) <= -65
    # a busy host may have run few slots by the time the gun goes down, or its stand-in
    # slot clock (a host thread) may be catching up, its rounds stamped close together (12
    # nearly at once, once): read on until ten rounds in a row came on time
    while on_time(lines) < 10:
        assert len(lines) < 1000, "not ten rounds in a row 9 slots of 2 ms apart"
        lines += hub.wait_for(lambda f: f[0] == "SEEN", timeout=20)
    seen = [fields(r) for r in lines if fields(r)[0] == "SEEN"]
    assert all(f[4] == "4,0,0,0,0,0,0,0" for f in seen)
    rounds = [int(f[3]) for f in seen]
    assert rounds == list(range(rounds[0], rounds[0] + len(rounds)))  # not one round lost


def test_slots_keep_running_while_the_main_loop_is_stuck(start):
    """A main loop stuck for 400 ms (a blocked USB write, say) stops no slot: the ring
    keeps them, and the rounds come out late but whole, each stamped when the interrupt
    took it, inside the stuck time.

    (Neither LATE nor the round's 18 ms is checked here: the stand-in slot clock is a host
    thread that a busy host delays and that then catches up, stamping rounds close
    together, more than half of them in one loaded run; the PIO program's own timing, in
    cycles, is tests/firmware/test_pio_cycles.py's.)
    """
    hub = start([SEEN_3_BY_1, *ALL_UP, {"at_ms": 500, "stall_ms": 400}])
    lines = hub.wait_for(lambda f: f[0] == "STAT" and int(f[3]) > 100, timeout=10)
    beats = [int(f[2]) for f in map(fields, lines) if f[0] == "HB"]
    stuck_from, stuck_to = max(itertools.pairwise(beats), key=lambda ab: ab[1] - ab[0])
    assert stuck_to - stuck_from >= 400  # it was stuck
    seen = [f for f in map(fields, lines) if f[0] == "SEEN"]
    rounds = [int(f[3]) for f in seen]
    assert rounds == list(range(rounds[0], rounds[0] + len(rounds)))  # none lost
    stamps = [int(f[2]) for f in seen]
    assert stamps == sorted(stamps)
    assert any(stuck_from < t < stuck_to for t in stamps)  # taken while the loop was stuck


def test_lines_the_host_cannot_take_are_dropped_and_counted(start):
    hub = start([SEEN_3_BY_1, *ALL_UP])
    pings = 6000  # ~130 kB of answers: more than the port holds
    hub.send_raw(b"".join(linecodec.encode(["PING", f"{i:x}"]) for i in range(pings)))
    # (the answer to a question asked as the flood ends may be dropped too: the host asks again)
    lines = hub.ask(lambda f: f[0] == "PONG" and f[3] == "ffffffff", "PING", "ffffffff")
    assert sum(fields(r)[0] == "PONG" for r in lines) < pings  # dropped, not queued
    stat = fields(hub.wait_for(lambda f: f[0] == "STAT")[-1])
    assert int(stat[6]) > 0  # DROPPED
    before = seen_rounds(hub.wait_for(lambda f: f[0] == "SEEN"))[-1]
    after = seen_rounds(hub.wait_for(lambda f: f[0] == "STAT"))[-1]
    assert after > before  # and the slots went on


def test_slots_command_changes_the_schedule(start):
    hub = start([{"at_ms": 0, "ir": {"3": 1 << 6, "7": 1 << 2}}, *ALL_UP])  # guns 7 and 3
    hub.line()
    hub.send("SLOTS", "3000", "7,3")
    assert fields(hub.wait_for(lambda f: f[0] in ("OK", "ERR"))[-1])[3:] == ["SLOTS"]
    seen = fields(hub.wait_for(lambda f: f[0] == "SEEN" and f[4] != "4,0,0,0,0,0,0,0")[-1])
    assert seen[4] == "4,40"  # the looks of guns 7 and 3, in slot order: badges 3 and 7
    hub.send("WHO")
    assert fields(hub.wait_for(lambda f: f[0] == "SLOTS")[-1])[3:] == ["3000", "7,3"]


def test_ctrl_c_leaves_the_watchdog_fed_for_maintenance(start):
    """What `mpremote` does to reach the REPL must not let the watchdog reset the board.

    (Without the stand-in clock's thread: this unix port, embedded in a CPython process,
    may take the signal on that thread, or crash tearing it down at exit.)
    """
    hub = start([*ALL_UP, {"at_ms": 0, "clock": "off"}])
    hub.line()
    hub.proc.send_signal(signal.SIGINT)
    assert hub.proc.wait(timeout=5) == 0  # main.py ended: on a board, the REPL
    assert "timer every 1000 ms" in hub.close()  # half the watchdog's 2 s


SPLIT_RECEIVERS = CONFIG | {"pins": CONFIG["pins"] | {"receivers": [0, 1, 2, 3, 4, 5, 6, 18]}}


@pytest.mark.parametrize(
    "broken", ["{not json", json.dumps({"pins": CONFIG["pins"]}), json.dumps(SPLIT_RECEIVERS)]
)
def test_a_broken_config_blinks_the_led_and_leaves_the_repl(micropython, tmp_path, broken):
    hub = BoardOnPty(micropython, "hub", tmp_path, {}, [])
    (tmp_path / "config.json").write_text(broken)  # (before the board reads it)
    try:
        said = hub.line(timeout=10)
        while b"fix config.json" not in said:
            said += hub.line()
        assert hub.proc.wait(timeout=5) == 0  # main.py returned: on a board, the REPL
    finally:
        err = hub.close()
    assert b"Error" in said and "timer every 200 ms" in err


def locks(stderr):
    """The lock LED bytes latched, as [(ms, byte)]."""
    out = []
    for line in stderr.splitlines():
        if line.startswith("machine stub: locks "):
            _, _, _, byte, _, ms, _ = line.split()
            out.append((int(ms), int(byte, 16)))
    return out


@pytest.mark.parametrize("stopped", [False, True], ids=["run", "stopped-mid-blink"])
def test_the_lock_led_is_steady_on_one_target_and_blinks_on_two(start, stopped):
    """Judged against the world's own changes, stamped on the stub's clock as the latches
    are: how long main.py takes to boot (60 to 250 ms on a busy machine) is not a rule.
    Stopped: a busy host leaves the board's process unrun for half a second as it blinks;
    the board's clock stands still through it (stubs/time.py), and so does the blink."""
    two, none = 600, 1400  # when gun 1 sees a second badge, and then none
    world = [*ALL_UP, {"at_ms": 0, "ir": {"3": 1}}, {"at_ms": two, "ir": {"3": 1, "4": 1}},
             {"at_ms": none, "ir": {}}]
    hub = start(world)
    if stopped:
        hub.wait_for(lambda f: f[0] == "SEEN" and f[4].startswith("c"), timeout=10)  # two
        hub.stop_for(0.5)
    hub.wait_for(lambda f: f[0] == "STAT" and int(f[3]) > 100, timeout=10)  # ~1.8 s
    latched = locks(hub.close())
    one = [b for ms, b in latched if ms < two]
    assert one[-1] == 1 and 1 not in one[:-1]  # lit once seen, and steady: unchanged
    blinking = [b for ms, b in latched if two <= ms < none]
    assert blinking == ([0, 1] * 4)[:len(blinking)], latched  # from lit, each latch a toggle
    # 4 Hz for 800 ms: a toggle each 125 ms, one late or missed across a stalled pass
    assert 5 <= len(blinking) <= 8, latched
    assert latched[-1][1] == 0  # and dark once nothing is seen
