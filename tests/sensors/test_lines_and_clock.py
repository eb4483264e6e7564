"""Cutting chunks into lines; mapping a board's clock onto ours."""

from companion.clock import BoardClock
from companion.wire.linecodec import T_WRAP, LineSplitter


def test_lines_are_reassembled_across_chunks():
    s = LineSplitter()
    assert s.feed(b"AB") == []
    assert s.feed(b"C\nDE\nF") == [b"ABC", b"DE"]
    assert s.feed(b"\n") == [b"F"]


def test_an_endless_line_is_dropped_up_to_the_next_end_of_line():
    s = LineSplitter()
    assert s.feed(b"X" * 500) == []
    assert s.feed(b"X" * 10 + b"\nok\n") == [b"ok"]
    assert s.too_long == 1


def test_restart_forgets_a_partial_line():
    s = LineSplitter()
    s.feed(b"HALF")
    s.restart()
    assert s.feed(b"NEW\n") == [b"NEW"]


def test_board_time_maps_with_the_smallest_delay_seen():
    c = BoardClock(T_WRAP)
    assert c.to_local(1000, 5003.0) == 5003.0
    assert c.to_local(1100, 5101.0) == 5101.0  # less delay: offset improves to 4001
    assert c.to_local(1200, 5210.0) == 5201.0  # a late line is placed when it happened


def test_board_time_unwraps():
    c = BoardClock(T_WRAP)
    c.to_local(T_WRAP - 10, 100.0)
    assert c.to_local(5, 115.0) == 115.0


def test_old_minimum_expires_with_the_window():
    c = BoardClock(T_WRAP, window_ms=1000)
    c.to_local(0, 100.0)  # offset 100
    c.to_local(5000, 5110.0)  # the old sample is out of the window: offset 110
    assert c.to_local(5100, 5210.0) == 5210.0
