"""The IR frame encoder and decoder, run on the MicroPython unix port."""

import random

from trains import SILENCE_US, distort, edges, overlay

from companion.wire import irframe

SEATS = list(range(1, irframe.MAX_SEAT + 1))


def test_every_seat_round_trips_on_both_runtimes(micropython):
    encoded = micropython.ask(*[["encode", s] for s in SEATS])
    assert encoded == [irframe.encode(s) for s in SEATS]  # CPython's simulator plays the same
    assert all(sum(d) == irframe.FRAME_US and len(d) == irframe.DURATIONS for d in encoded)
    decoded = micropython.ask(*[["decode", d] for d in encoded])
    assert decoded == SEATS


def test_receiver_decodes_every_seat_through_receiver_distortion(micropython):
    cases = [(s, st) for s in SEATS for st in (-150, 0, 150)]
    got = micropython.ask(*[["receive", edges(distort(irframe.encode(s), st))] for s, st in cases])
    assert got == [[s] for s, _ in cases]


def test_seats_outside_the_field_are_not_encoded(micropython):
    answers = micropython.ask(["encode", 0], ["encode", 16], errors=True)
    assert all("ValueError" in a.get("error", "") for a in answers)


def test_random_noise_is_rejected(micropython):
    rng = random.Random(6)
    trains = [[rng.randint(50, 3000) for _ in range(rng.randint(1, 80))] for _ in range(300)]
    assert micropython.ask(*[["receive", edges(t)] for t in trains]) == [[]] * len(trains)


def test_a_glitch_in_a_frame_is_rejected(micropython):
    """A 60 µs flash or dropout splitting the leader or a bit loses the frame.

    (Splitting the stop mark, once every bit is in, still reads the right seat.)
    """
    requests = []
    for seat in (1, 5, 10, 15):
        frame = irframe.encode(seat)
        for i, d in enumerate(frame[:-1]):
            cut = d // 2
            glitched = [*frame[:i], cut, 60, d - cut - 60, *frame[i + 1 :]]
            requests.append(["receive", edges(glitched)])
    assert micropython.ask(*requests) == [[]] * len(requests)


def test_truncated_frames_are_rejected_and_the_next_frame_is_read(micropython):
    requests = []
    for seat in (3, 12):
        frame = irframe.encode(seat)
        for n in range(1, irframe.DURATIONS):
            requests.append(["decode", frame[:n]])
            cut = frame[: n if n % 2 else n - 1]  # a trailing space is just silence
            then = (sum(cut) + SILENCE_US, irframe.encode(7))
            requests.append(["receive", edges(overlay((0, cut), then))])
    answers = micropython.ask(*requests)
    assert answers[0::2] == [None] * (len(requests) // 2)
    assert answers[1::2] == [[7]] * (len(requests) // 2)


def test_colliding_beacons_never_yield_a_seat_that_was_not_sent(micropython):
    """Two beacons at once (hub slots prevent it): garbage is rejected, never misread.

    When the second starts within the first one's leader, both are rejected; later
    overlaps may leave one frame readable, which is then a seat that was really sent.
    """
    early, late = [], []
    for a in SEATS:
        for b in SEATS:
            if a == b:
                continue
            first = (0, irframe.encode(a))
            for offset in range(0, irframe.LEADER_MARK_US, 150):
                early.append(["receive", edges(overlay(first, (offset, irframe.encode(b))))])
            for offset in range(irframe.LEADER_MARK_US, irframe.FRAME_US, 700):
                late.append((a, b, overlay(first, (offset, irframe.encode(b)))))
    answers = micropython.ask(*early, *[["receive", edges(t)] for _, _, t in late])
    assert answers[: len(early)] == [[]] * len(early)
    for (a, b, _), got in zip(late, answers[len(early) :], strict=True):
        assert set(got) <= {a, b}
