"""The hub's logic (companion/wire/hubcore.py) on the MicroPython unix port.

Guns at a table are scripted as what each sees round after round (tests/firmware/
table_looks.py); the hub gets them as the slot masks its hardware layer would hand
over, and must report them, track aims and light the lock LEDs by the aim rule.
"""

import json
import sys

from firmware_harness import HERE, check_sequence
from table_looks import ROUND_MS, bit, look, rounds

from companion.wire import linecodec
from companion.wire.hubcore import Hub

sys.path.insert(0, str(HERE / "mp"))
from drive import drive_hub  # the driver that oracle.py runs on MicroPython

SEATS = [1, 2, 3, 4, 5, 6, 7, 8]
SCHEDULE = [0, *SEATS]
ALL = 0xFF
HUB = ["hub", SEATS, 2000, 500, 30, ALL]  # all standing; guns raised until an IMU speaks
LEVEL = [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]  # an IMU at rest, the gun level
DOWN = [0.0, 0.0, 0.0, -0.94, 0.0, 0.342]  # at rest, 70° down
BEARINGS = {3: 0.0, 4: 22.5}  # from gun 1: 180°/8 apart, as targets on the players are


def command(*fields):
    return linecodec.encode(fields).decode().rstrip("\n")


def run_hub(micropython, events, hub=HUB):
    [got] = micropython.ask(["hub", hub, events])
    got["lines"] = [
        (f[0], int(f[2]), f[3:]) for f in check_sequence([x.encode() for x in got["lines"]])
    ]
    return got


def seen(got):
    return [(t, f) for kind, t, f in got["lines"] if kind == "SEEN"]


def test_hello_reports_every_gun_standee_and_the_slots(micropython):
    events = [["imu", 1, 5, DOWN], ["hello", 5]]
    got = run_hub(micropython, events, ["hub", [2, 5], 2000, 500, 30, bit(5)])
    assert got["lines"] == [  # a gun is lowered until its IMU says otherwise
        ("HELLO", 5, ["3", "hub", "hub", "0.3.0", "0"]),
        ("GUN", 5, ["2", "down", "-", "-"]),  # no IMU heard yet
        ("POST", 5, ["2", "down"]),
        ("GUN", 5, ["5", "down", "-70", "0"]),
        ("POST", 5, ["5", "up"]),
        ("SLOTS", 5, ["2000", "2,5"]),
    ]
    assert got["schedule"] == [0, 2, 5]


def test_a_held_aim_is_seen_counted_and_locked(micropython):
    held = [{1: look(3.0, BEARINGS)}] * 35  # 630 ms at 3° off seat 3's badge
    events = [*rounds(SCHEDULE, held), ["locks", 700, True], ["locks", 700, False]]
    got = run_hub(micropython, events)
    assert seen(got) == [(ROUND_MS * (k + 1), [str(k), "4,0,0,0,0,0,0,0", "0"])
                         for k in range(35)]
    assert got["aims"]["1"] == ["held", 3, ROUND_MS]  # stamped at its first look
    assert got["history"] == [[1, "held", 3, ROUND_MS]]  # counted once the window was full
    assert got["locks"]["1"] == 1 and got["lit"] == [bit(1), bit(1)]  # steady


def test_a_gun_catching_its_own_badge_stays_on_its_one_target(micropython):
    """Gun 1 held on seat 3 also catches its holder's badge (seat 1) now and then: a
    reflection off a sleeve, or supply ripple. Neither SEEN nor the lock LED shows it."""
    held = [{1: bit(3) | (bit(1) if k % 2 else 0)} for k in range(35)]
    events = [*rounds(SCHEDULE, held), ["locks", 700, True], ["locks", 700, False]]
    got = run_hub(micropython, events)
    assert {f[1] for _, f in seen(got)} == {"4,0,0,0,0,0,0,0"}
    assert got["aims"]["1"] == ["held", 3, ROUND_MS]
    assert got["locks"]["1"] == 1 and got["lit"] == [bit(1), bit(1)]  # steady, never blinking


def test_seen_stops_after_the_first_empty_round(micropython):
    looks = [{1: bit(3)}] * 3 + [{}] * 4 + [{2: bit(5)}] + [{}] * 2
    got = run_hub(micropython, rounds(SCHEDULE, looks))
    assert [f[0] for _, f in seen(got)] == ["0", "1", "2", "3", "7", "8"]
    assert seen(got)[3][1][1] == "0,0,0,0,0,0,0,0" and seen(got)[4][1][1] == "0,10,0,0,0,0,0,0"


def test_a_sweep_at_60_degrees_a_second_is_never_counted(micropython):
    """Over ±10° a 60°/s sweep is inside for 333 ms, less than the 500 ms window."""
    n = 100  # -40° to +68°: across seat 3's badge and then seat 4's
    looks = [{1: look(-40 + 60 * ROUND_MS * k / 1000, BEARINGS)} for k in range(n)]
    got = run_hub(micropython, rounds(SCHEDULE, looks))
    sightings = [k for k, lk in enumerate(looks) if lk[1]]
    assert len(seen(got)) > 30 and 18 * ROUND_MS <= 333 < 28 * ROUND_MS  # it was seen
    assert got["history"] == []  # and never held: the aim stayed "none"
    assert sightings and got["aims"]["1"] == ["none", 0, None]


def test_a_gun_between_two_targets_is_ambiguous_and_blinks(micropython):
    # pointed between seats 3 and 4, with badges 15° apart: both inside ±10°
    looks = [{1: look(7.5, {3: 0.0, 4: 15.0})}] * 40
    events = [*rounds(SCHEDULE, looks), ["locks", 800, True], ["locks", 800, False]]
    got = run_hub(micropython, events)
    assert got["aims"]["1"] == ["ambiguous", bit(3) | bit(4), ROUND_MS]
    assert got["locks"]["1"] == 2 and got["lit"] == [bit(1), 0]  # blinking
    assert all(f[1] == "c,0,0,0,0,0,0,0" for _, f in seen(got))


def test_a_swing_to_a_second_target_while_held_is_ambiguous_at_once(micropython):
    looks = [{1: bit(3)}] * 30 + [{1: bit(3) | bit(4)}] + [{1: bit(4)}] * 30
    got = run_hub(micropython, rounds(SCHEDULE, looks))
    assert got["history"] == [
        [1, "held", 3, ROUND_MS],
        [1, "ambiguous", bit(3) | bit(4), 31 * ROUND_MS],
        [1, "held", 4, 32 * ROUND_MS],
    ]


def test_a_fallen_standee_is_reported_debounced(micropython):
    bouncing = [["inputs", t, ALL & ~(bit(7) if t // 5 % 2 else 0)] for t in range(0, 30, 5)]
    fallen = [["inputs", t, ALL & ~bit(7)] for t in range(30, 100, 5)]
    got = run_hub(micropython, bouncing + fallen)
    assert got["lines"] == [("POST", 55, ["7", "down"])]  # down for good from 25 ms, held 30


def _tilted(t, el_deg, rate_dps=0.0):
    """An IMU sample of a gun at el_deg turning up at rate_dps (nose up: -y)."""
    import math
    e = math.radians(el_deg)
    return [0.0, -rate_dps, 0.0, math.sin(e), 0.0, math.cos(e)]


def test_a_gun_lowered_below_65_degrees_and_raised_above_55_with_hysteresis(micropython):
    """Elevation from the IMU: a standing player aiming 40 to 55° down stays raised."""
    path = [0, -20, -40, -55, -63, -50, -60, -68, -75, -70, -58, -56, -54, -30]
    events = [["imu", 1, 1, LEVEL]]
    t = 1
    for el in path:
        for _ in range(40):  # 40 samples of 20 ms at rest at each elevation
            t += 20
            events.append(["imu", t, 1, _tilted(t, el)])
    got = run_hub(micropython, events)
    guns = [(f[1], int(f[2])) for kind, _, f in got["lines"] if kind == "GUN"]
    assert [g[0] for g in guns] == ["up", "down", "up"]  # raised at its first sample
    assert guns[1][1] <= -65 and guns[2][1] >= -55


def test_a_moving_gun_counts_no_look_and_lights_no_lock(micropython):
    """After a second at rest (the hub learns the gyro's bias: 2 °/s here), gun 1 sees
    seat 3 all along while it turns at 12 °/s: SEEN says it moved, the aim stays none and
    the lock LED dark; held still again, the same looks count."""
    events = []
    for k in range(180):  # 70 rounds at rest, 60 turning at 12 °/s about z, 50 still
        t = ROUND_MS * (k + 1)
        turning = 70 <= k < 130
        events.append(["imu", t - 1, 1, [0.0, 2.0, 2.0 + (12.0 if turning else 0.0), 0, 0, 1]])
        events += rounds(SCHEDULE, [{1: bit(3)} if k >= 70 else {}], t0=t - ROUND_MS)
        if k == 129:
            events.append(["locks", t, True])
    got = run_hub(micropython, events)
    moving = {int(f[0]): f[2] for _, f in seen(got)}
    assert {moving[k] for k in range(90, 130)} == {"1"} and moving[179] == "0"
    assert got["lit"] == [0]  # dark while it moved
    assert [h[1:3] for h in got["history"]] == [["held", 3]]  # only once still
    assert got["history"][0][3] > 130 * ROUND_MS


def test_heartbeat_carries_the_round_and_stat_counts_noise_and_late_slots(micropython):
    noisy = rounds(SCHEDULE, [{}] * 5, noise=bit(2) | bit(6))
    events = [["tick", 0], *noisy, ["late", 3], ["tick", 99], ["tick", 100], ["tick", 1000]]
    events += [["rounds", 65535], ["tick", 1100], *rounds(SCHEDULE, [{}], t0=1100), ["tick", 1200]]
    got = run_hub(micropython, events)
    beats = [(kind, t, f) for kind, t, f in got["lines"] if kind in ("HB", "STAT")]
    assert beats == [
        ("HB", 0, ["0"]),
        ("STAT", 0, ["0", "0", "0", "0", "0"]),
        ("HB", 100, ["5"]),
        ("HB", 1000, ["5"]),
        ("STAT", 1000, ["5", "3", "10", "0", "0"]),  # 2 noisy receivers x 5 dark slots
        ("HB", 1100, ["65535"]),
        ("HB", 1200, ["0"]),  # the round number wraps
    ]
    assert seen(got) == []  # noise is no sighting


def test_slots_sets_the_schedule_and_refuses_what_cannot_be_played(micropython):
    ok = [["rx", 1, command("SLOTS", "3000", "3,1,7")], ["hello", 2]]
    got = run_hub(micropython, ok)
    assert got["schedule"] == [0, 3, 1, 7] and got["lines"][0] == ("OK", 1, ["SLOTS"])
    assert got["lines"][-1] == ("SLOTS", 2, ["3000", "3,1,7"])
    assert sorted(got["aims"]) == ["1", "3", "7"]
    refused = {
        "range": [("SLOTS", "1499", "1,2"), ("SLOTS", "5001", "1"), ("SLOTS", "2000", "1,9"),
                  ("SLOTS", "2000", "2,2")],
        "syntax": [("SLOTS", "2000"), ("SLOTS", "fast", "1"), ("SLOTS", "2000", "1,,2")],
    }
    for code, commands in refused.items():
        events = [["rx", i, command(*c)] for i, c in enumerate(commands)]
        got = run_hub(micropython, events)
        assert [f for _, _, f in got["lines"]] == [[code]] * len(commands)
        assert got["schedule"] == SCHEDULE
    short_hold = ["hub", SEATS, 2000, 50, 30, ALL]  # 9 x 2 ms > 50 ms / 3
    got = run_hub(micropython, [["rx", 0, command("SLOTS", "2000", "1,2,3,4,5,6,7,8")]],
                  short_hold)
    assert got["lines"] == [("ERR", 0, ["range"])]


def test_slots_out_of_schedule_void_their_round(micropython):
    cut = [["slot", 1, 0, 0], ["slot", 2, 1, bit(1)], ["slot", 3, 0, 0]]  # a new dark slot
    stray = [["slot", 4, 5, bit(1)]] + [["slot", 5 + i, s, bit(1)] for i, s in enumerate(SEATS)]
    whole = rounds(SCHEDULE, [{1: bit(2)}], t0=100)
    got = run_hub(micropython, cut + stray + whole)
    assert got["rounds"] == 1 and seen(got) == [(118, ["0", "2,0,0,0,0,0,0,0", "0"])]


def test_cpython_runs_the_same_hub_core_to_the_same_lines(micropython):
    """The companion's simulated hub imports companion.wire.hubcore: same code, same lines."""
    looks = [{1: bit(3)}] * 30 + [{1: bit(3) | bit(4), 2: bit(1)}] + [{}] * 3
    events = [["hello", 0], ["tick", 0], *rounds(SCHEDULE, looks, noise=bit(8)), ["tick", 1000],
              ["rx", 1001, command("SLOTS", "2500", "2,1")], ["inputs", 1002, ALL],
              ["imu", 1003, 2, DOWN], ["imu", 1004, 1, None], ["imu", 1300, 1, None]]
    events += [["inputs", 1040, ALL & ~bit(1)], ["locks", 1050, True]]
    [on_board] = micropython.ask(["hub", HUB, events])
    on_cpython = json.loads(json.dumps(drive_hub(Hub, HUB, events)))  # keys as JSON has them
    assert on_cpython == on_board
