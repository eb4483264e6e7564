"""The gun's logic on the MicroPython unix port; every line it sends checked byte for byte."""

from firmware_harness import check_sequence
from trains import frame_edges

from companion.wire import irframe, linecodec

GUN = ["g3", 3, 250, 30, 0]  # id, seat, hold_ms, debounce_ms, raised at boot


def command(*fields):
    return linecodec.encode(fields).decode().rstrip("\n")


def frame(now, seat):
    return [["edge", now, dt, level] for dt, level in frame_edges(seat)]


def run_gun(micropython, events):
    [lines] = micropython.ask(["gun", GUN, events])
    return check_sequence([line.encode() for line in lines])


def messages(decoded):
    """Each message as (type, T, rest) — SEQ is checked by check_sequence."""
    return [(f[0], int(f[2]), f[3:]) for f in decoded]


def test_hello_then_readings_then_aim_changes_and_the_aim_expires(micropython):
    events = [
        ["hello", 0],
        *frame(100, 5),
        ["tick", 150],
        *frame(212, 5),  # still 5: nothing new
        *frame(324, 6),
        ["tick", 573],
        ["tick", 574],  # 250 ms after the last frame
    ]
    got = messages(run_gun(micropython, events))
    assert got == [
        ("HELLO", 0, ["1", "gun", "g3", "0.1.0", "3"]),
        ("AIM", 0, ["-"]),
        ("TILT", 0, ["0"]),
        ("AIM", 100, ["5"]),
        ("HB", 150, []),
        ("AIM", 324, ["6"]),
        ("HB", 573, []),
        ("AIM", 574, ["-"]),
    ]


def test_tilt_is_debounced_and_reported_on_change(micropython):
    bounce = [["tilt", t, t // 5 % 2] for t in range(10, 40, 5)]
    held = [["tilt", t, 1] for t in range(40, 90, 5)]
    got = messages(run_gun(micropython, bounce + held))
    assert got == [("TILT", 65, ["1"])]  # the last bounce was at 35 ms


def test_commands_are_answered_and_bad_ones_refused(micropython):
    good_who = command("WHO")
    events = [
        ["rx", 1, command("PING", "1f")],
        ["rx", 2, good_who],
        ["rx", 3, good_who[:-1] + ("0" if good_who[-1] != "0" else "1")],  # a wrong CRC
        ["rx", 4, "WHO"],  # no CRC
        ["rx", 5, command("PING", "xyz")],
        ["rx", 6, command("FIRE", "3")],
        ["rx", 7, command("SLOTS", "14000", "1,2")],  # a hub command
        ["rx", 8, "HB 3 1234*4785"],  # a board's own line echoed back
    ]
    got = messages(run_gun(micropython, events))
    assert [(m[0], m[2]) for m in got] == [
        ("PONG", ["1f"]),
        ("HELLO", ["1", "gun", "g3", "0.1.0", "3"]),
        ("AIM", ["-"]),
        ("TILT", ["0"]),
        ("ERR", ["crc"]),
        ("ERR", ["syntax"]),
        ("ERR", ["syntax"]),
        ("ERR", ["unknown"]),
        ("ERR", ["unknown"]),
        ("ERR", ["unknown"]),
    ]


def test_seq_wraps_and_stays_valid(micropython):
    events = [["seq", 0, 65534]] + [["tick", t] for t in range(0, 800, 200)]
    decoded = run_gun(micropython, events)
    assert [f[1] for f in decoded] == ["65534", "65535", "0", "1"]


def test_the_edge_ring_hands_over_levels_in_order_and_counts_overflow(micropython):
    levels = [i % 2 for i in range(40)]  # the pin idles high: every level is an edge
    [(handed, lost)] = micropython.ask(["edge_log", GUN, levels, 64])
    assert (handed, lost) == (levels[1:], 0)  # the first edge only starts the clock
    [(handed, lost)] = micropython.ask(["edge_log", GUN, levels, 8])
    assert (len(handed), lost) == (6, len(levels) - 7)


def test_frame_length_matches_the_design():
    assert irframe.FRAME_US == 12400
