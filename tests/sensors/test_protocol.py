"""Board lines: the examples in firmware/PROTOCOL.md parse; anything else is refused."""

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.sensors import protocol
from companion.wire.linecodec import LineError, encode

DOC = Path(__file__).resolve().parents[2] / "firmware" / "PROTOCOL.md"


def doc_examples() -> list[bytes]:
    block = re.search(r"## Examples\n```\n(.*?)```", DOC.read_text(), re.S).group(1)
    return [line.encode() for line in block.splitlines()]


def test_every_example_in_the_protocol_doc_parses():
    messages = [protocol.parse(line) for line in doc_examples()]
    assert [m.type for m in messages] == ["HELLO", "AIM", "TILT", "HB", "AIM", "PONG"]
    hello = messages[0]
    assert (hello.kind, hello.board_id, hello.firmware, hello.seat) == ("gun", "g3", "0.1.0", 3)
    assert messages[1].seat is None and messages[4].seat == 5
    assert messages[2].value is False and messages[5].text == "1f"


@pytest.mark.parametrize(("fields", "reason"), [
    (["BOOM", 1, 2], "unknown"),
    (["AIM", 1, 2], "fields"),
    (["AIM", 1, 2, 9], "range"),
    (["AIM", 1, 2, "x"], "fields"),
    (["TILT", 1, 2, 2], "fields"),
    (["POST", 1, 2, 3, "sideways"], "fields"),
    (["HELLO", 1, 2, 2, "gun", "g3", "0.1.0", 3], "version"),
    (["HELLO", 1, 2, 1, "gun", "G3!", "0.1.0", 3], "fields"),
    (["HELLO", 1, 2, 1, "gun", "g3", "0.1.0", 0], "range"),
    (["HB", 70000, 2], "range"),
    (["HB", 1, 1 << 30], "range"),
    (["HB", -1, 5], "fields"),
])
def test_wrong_fields_are_refused_with_a_reason(fields, reason):
    with pytest.raises(LineError) as err:
        protocol.parse(encode(fields))
    assert err.value.reason == reason


def test_a_damaged_checksum_is_refused():
    line = bytearray(encode(["TILT", 1, 2, 1]))
    line[5] = ord("9")
    with pytest.raises(LineError) as err:
        protocol.parse(bytes(line))
    assert err.value.reason == "bad_crc"


def test_commands_are_framed():
    assert protocol.who() == encode(["WHO"])
    assert protocol.ping(0x1F) == encode(["PING", "1f"])
    assert protocol.slots(10000, (1, 2)) == encode(["SLOTS", 10000, "1,2"])


@given(st.binary(max_size=200))
def test_any_bytes_parse_or_raise_lineerror_only(data):
    try:
        message = protocol.parse(data)
    except LineError as exc:
        assert exc.reason
    else:
        assert data.endswith(b"\n") or b"*" in data
        assert message.type in ("HELLO", "HB", "AIM", "TILT", "POST", "PONG", "OK", "ERR")
