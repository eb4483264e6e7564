"""The line codec (companion/wire/linecodec.py), PROTO 3: hub lines parse; anything else
is refused with a reason."""

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.wire import linecodec
from companion.wire.linecodec import LineError, encode

DOC = Path(__file__).resolve().parents[2] / "firmware" / "PROTOCOL.md"


def test_each_message_of_the_hub_parses():
    hello = linecodec.parse(encode(["HELLO", 0, 5, 3, "hub", "hub", "0.3.0", 0]))
    assert (hello.board_id, hello.firmware, hello.seq, hello.t) == ("hub", "0.3.0", 0, 5)
    assert linecodec.parse(encode(["HB", 1, 6, 65535])).round == 65535
    seen = linecodec.parse(encode(["SEEN", 2, 7, 12, "0,4,ff,10", "a"]))
    assert (seen.round, seen.masks, seen.moving) == (12, (0, 4, 255, 16), 0b1010)
    gun = linecodec.parse(encode(["GUN", 3, 8, 4, "up", -35, 12]))
    assert (gun.seat, gun.value, gun.elevation, gun.rate) == (4, True, -35, 12)
    unheard = linecodec.parse(encode(["GUN", 3, 8, 4, "down", "-", "-"]))
    assert (unheard.value, unheard.elevation, unheard.rate) == (False, None, None)
    post = linecodec.parse(encode(["POST", 4, 9, 2, "down"]))
    assert (post.seat, post.value) == (2, "down")  # one form from the hub to the page
    slots = linecodec.parse(encode(["SLOTS", 5, 10, 2000, "1,2,3,5"]))
    assert (slots.slot_us, slots.seats) == (2000, (1, 2, 3, 5))
    assert linecodec.parse(encode(["STAT", 6, 11, 900, 1, 2, 0, 7])).stat == (900, 1, 2, 0, 7)
    assert linecodec.parse(encode(["PONG", 7, 12, "1f"])).text == "1f"
    assert linecodec.parse(encode(["OK", 8, 13, "SLOTS"])).text == "SLOTS"


def test_the_examples_of_the_protocol_doc_parse_when_it_describes_proto_3():
    text = DOC.read_text()
    block = re.search(r"## Examples\n.*?```\n(.*?)```", text, re.S)
    lines = [line.encode() for line in block.group(1).splitlines()] if block else []
    assert any(b"HELLO" in line and b" 3 hub " in line for line in lines)
    assert {linecodec.parse(line).type for line in lines if line} >= {"HELLO", "SEEN", "HB",
                                                                       "GUN"}


@pytest.mark.parametrize(("fields", "reason"), [
    (["BOOM", 1, 2], "unknown"),
    (["AIM", 1, 2, 3], "unknown"),  # gun boards are gone
    (["HB", 1, 2], "fields"),
    (["HB", 1, 2, 65536], "range"),
    (["SEEN", 1, 2, 3, "0,1g", "0"], "fields"),
    (["SEEN", 1, 2, 3, "100", "0"], "fields"),
    (["SEEN", 1, 2, 3, "1,2,3,4,5,6,7,8,9", "0"], "fields"),
    (["SEEN", 1, 2, 3, "1,,2", "0"], "fields"),
    (["SEEN", 1, 2, 3, "1,2"], "fields"),  # PROTO 2's SEEN: no moving guns
    (["SEEN", 1, 2, 3, "1,2", "1ff"], "fields"),
    (["TILT", 1, 2, 3, 1], "unknown"),  # the ball switch is gone
    (["GUN", 1, 2, 9, "up", 0, 0], "range"),
    (["GUN", 1, 2, 3, "1", 0, 0], "fields"),
    (["GUN", 1, 2, 3, "up", 91, 0], "range"),
    (["GUN", 1, 2, 3, "up", -91, 0], "range"),
    (["GUN", 1, 2, 3, "up", "--5", 0], "fields"),
    (["GUN", 1, 2, 3, "up", 5, 1000], "range"),
    (["GUN", 1, 2, 3, "up", "-", 0], "fields"),
    (["POST", 1, 2, 3, "sideways"], "fields"),
    (["SLOTS", 1, 2, 1000, "1,2"], "range"),
    (["SLOTS", 1, 2, 2000, "1,1"], "fields"),
    (["STAT", 1, 2, 1, 2, 3, 4], "fields"),
    (["STAT", 1, 2, 1, 2, 3, 4, -5], "fields"),
    (["HELLO", 1, 2, 1, "hub", "hub", "0.1.0", 0], "version"),
    (["HELLO", 1, 2, 2, "hub", "hub", "0.2.0", 0], "version"),
    (["HELLO", 1, 2, 3, "gun", "g3", "0.1.0", 3], "fields"),
    (["HELLO", 1, 2, 3, "hub", "H!", "0.2.0", 0], "fields"),
    (["HELLO", 1, 2, 3, "hub", "hub", "two", 0], "fields"),
    (["HB", 70000, 2, 1], "range"),
    (["HB", 1, 1 << 30, 1], "range"),
    (["HB", -1, 5, 1], "fields"),
    (["ERR", 1, 2, "oops"], "fields"),
])
def test_wrong_fields_are_refused_with_a_reason(fields, reason):
    with pytest.raises(LineError) as err:
        linecodec.parse(encode(fields))
    assert err.value.reason == reason


def test_a_damaged_checksum_is_refused():
    line = bytearray(encode(["POST", 1, 2, 3, "up"]))
    line[5] = ord("9")
    with pytest.raises(LineError) as err:
        linecodec.parse(bytes(line))
    assert err.value.reason == "bad_crc"


def test_commands_are_framed():
    assert linecodec.who() == encode(["WHO"])
    assert linecodec.ping(0x1F) == encode(["PING", "1f"])
    assert linecodec.slots(2000, (1, 2)) == encode(["SLOTS", 2000, "1,2"])


@given(st.binary(max_size=200))
def test_any_bytes_parse_or_raise_lineerror_only(data):
    try:
        message = linecodec.parse(data)
    except LineError as exc:
        assert exc.reason
    else:
        assert message.type in linecodec.TYPES


@given(st.lists(st.sampled_from(["SEEN", "HB", "GUN", "POST", "SLOTS", "STAT", "1", "0",
                                 "ff", "1,2", "up", "-1", "2000", "99999999999", "a,b"]),
                max_size=7))
def test_any_framed_fields_parse_or_raise_lineerror_only(fields):
    try:
        linecodec.parse(encode(fields or ["X"]))
    except LineError as exc:
        assert exc.reason
