"""The hub's logic and beacon timing on the MicroPython unix port."""

import itertools

from firmware_harness import check_sequence

from companion.wire import irframe, linecodec

SEATS = [1, 2, 3, 4, 5, 6, 7, 8]
HUB = ["hub", SEATS, 14000, 30, [1] * 8]  # id, seats, slot_us, debounce_ms, all standing


def command(*fields):
    return linecodec.encode(fields).decode().rstrip("\n")


def run_hub(micropython, events):
    [lines] = micropython.ask(["hub", HUB, events])
    return [(f[0], int(f[2]), f[3:]) for f in check_sequence([x.encode() for x in lines])]


def test_hello_is_followed_by_every_standee(micropython):
    got = run_hub(micropython, [["hello", 5]])
    assert got[0] == ("HELLO", 5, ["1", "hub", "hub", "0.1.0", "0"])
    assert got[1:] == [("POST", 5, [str(s), "up"]) for s in SEATS]


def test_a_standee_laid_down_is_posted_once_debounced(micropython):
    wobble = [["switch", t, 4, t // 10 % 2] for t in range(0, 60, 10)]  # last up at 50
    down = [["switch", t, 4, 0] for t in range(60, 120, 10)]
    others = [["switch", 100, s, 1] for s in SEATS if s != 4]
    assert run_hub(micropython, wobble + down + others) == [("POST", 90, ["4", "down"])]


def test_slots_sets_the_beacon_order_and_refuses_what_cannot_be_played(micropython):
    ok = [["rx", 1, command("SLOTS", "20000", "3,1,7")]]
    assert micropython.ask(["hub_slots", HUB, ok, 7]) == [[20000, [3, 1, 7, 3, 1, 7, 3]]]
    assert run_hub(micropython, ok)[0] == ("OK", 1, ["SLOTS"])
    refused = {
        "range": [
            ("SLOTS", str(irframe.FRAME_US), "1,2"),  # no gap after the frame
            ("SLOTS", "50001", "1"),
            ("SLOTS", "20000", "1,9"),  # seat 9 is not wired
            ("SLOTS", "20000", "2,2"),
        ],
        "syntax": [("SLOTS", "20000"), ("SLOTS", "fast", "1"), ("SLOTS", "20000", "1,,2")],
    }
    for code, commands in refused.items():
        events = [["rx", i, command(*c)] for i, c in enumerate(commands)]
        assert [m[2] for m in run_hub(micropython, events)] == [[code]] * len(commands)
    assert micropython.ask(["hub_slots", HUB, [["rx", 1, command("SLOTS", "5", "1")]], 3]) == [
        [14000, SEATS[:3]]  # unchanged
    ]


def test_a_played_frame_keeps_its_deadlines_and_decodes(micropython):
    """The hub's busy-wait player, timed by the real runtime, makes frames a gun reads.

    Every edge is on or after its deadline, counted from the start of the frame, so a
    late edge never shifts the next. This host may preempt the process mid-frame (a
    board does not), so of a few plays one must be exact to 100 µs and decode.
    """
    for seat in (1, 8):
        nominal = irframe.encode(seat)
        deadlines = [sum(nominal[: i + 1]) for i in range(len(nominal))]
        exact = False
        for _ in range(5):
            [log] = micropython.ask(["beacon", seat, 21845])
            assert [d for _, d in log] == [21845, 0] * 10
            times = [t for t, _ in log[1:]]
            # (the first duty change is logged a µs or so after the player's start time)
            assert all(t >= want - 5 for t, want in zip(times, deadlines, strict=True)), times
            durations = [b - a for a, b in zip([0, *times], times, strict=False)]
            worst = max(abs(d - want) for d, want in zip(durations, nominal, strict=True))
            if worst < 100 and irframe.decode(durations) == seat:
                exact = True
                break
        assert exact, durations


def test_beacons_take_turns_in_slot_order_and_never_overlap(micropython):
    """Each beacon sends its own seat, in the order SLOTS gave, one after the other."""
    slots = [["rx", 0, command("SLOTS", "15000", "3,1,2")]]
    hub = ["hub", [1, 2, 3], 14000, 30, [1, 1, 1]]
    [logs] = micropython.ask(["beacon_slots", hub, slots, 6])
    frames = []  # (start, end, seat, durations) of each frame played
    for seat, log in logs:
        per_frame = irframe.DURATIONS + 1  # a duty change per duration, then off
        assert len(log) == 2 * per_frame  # two rounds: two frames per beacon
        for k in range(2):
            times = [t for t, _ in log[k * per_frame : (k + 1) * per_frame]]
            durations = [b - a for a, b in itertools.pairwise(times)]
            frames.append((times[0], times[-1], seat, durations))
    frames.sort()
    assert [f[2] for f in frames] == [3, 1, 2, 3, 1, 2]
    assert all(irframe.decode(f[3]) == f[2] for f in frames)
    for before, after in itertools.pairwise(frames):  # (on virtual time: no preemption)
        assert after[0] >= before[1] + irframe.MIN_GAP_US  # never two beacons at once
        assert after[0] - before[0] >= 15000  # the slot length SLOTS asked for
