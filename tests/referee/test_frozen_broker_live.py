"""No blind decision through the real broker: Mosquitto stopped (SIGSTOP) at random
moments around "three" while an aim begins at a random moment. A few trials here; the
200 of bench/blind_decisions.py run the same trial (figures in docs/PERFORMANCE.md), and
test_watermarks.py runs 200 on the fake clock."""

from __future__ import annotations

import random

from frozen_live import live_trial

TRIALS = 5


def test_a_broker_stopped_around_three_is_never_decided_blind(private_mosquitto):
    rng = random.Random(2025)
    port, freeze = private_mosquitto.port, private_mosquitto.freeze
    outcomes = [live_trial(port, freeze, rng, f"fz{i}") for i in range(TRIALS)]
    for o in outcomes:
        assert not o.blind, o
        assert o.decided or o.voided, o  # never left waiting: decided right, or called off
    # the case first seen: stopped 550 ms after "three", an aim begun at +300 held: the
    # aim never reached the referee; it was counted too slow, now the count is called off
    issue = live_trial(port, freeze, rng, "fz-issue", at=(550, 300))
    assert not issue.decided and issue.voided == "broker went down (not answering)"
    # stopped once the window's data is all in (past +1000 ms and a probe's echo): decided
    late = live_trial(port, freeze, rng, "fz-late", at=(1450, 300))
    assert (late.decided, late.target, late.voided) == (True, "Bob", None)
