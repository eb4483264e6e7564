"""Blind decisions with the broker stopped around "three": the live trial of
tests/referee/frozen_live.py, many times.

    .venv/bin/python bench/blind_decisions.py [--trials 200] [--seed 25]

A real Mosquitto (no persistence, on 127.0.0.1); each trial is a 4-player hold-up on the
real clock with the referee as `companion run` wires it (its MQTT link and probe, its time
driver) and a hub's messages published through the broker: rounds of looks every 25 ms,
Ana's aim at Bob begun at a random moment from 1.5 s before to 1 s after "three" (reported
once held 500 ms, stamped when it began). The broker is stopped (SIGSTOP) at a random
moment from 1 s before to 1.5 s after "three" and continued after the trial. A decision is
blind when it differs from what the rules make of the aim as it happened (counted if begun
by three + 500 ms). Results are in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "referee")]

from conftest import Mosquitto  # noqa: E402
from frozen_live import live_trial  # noqa: E402
from ports import free_port  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--seed", type=int, default=25)
    args = ap.parse_args()
    logging.getLogger("companion").setLevel(logging.ERROR)  # the voided counts are on purpose
    tmp = Path(tempfile.mkdtemp(prefix="bench-blind-"))
    port = free_port()
    conf = tmp / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\nset_tcp_nodelay true\n"
                    "persistence false\nlog_dest stderr\nlog_type error\n")
    broker = Mosquitto(port, conf)
    broker.start()
    rng = random.Random(args.seed)
    tally: Counter[str] = Counter()
    began = time.monotonic()
    try:
        for i in range(args.trials):
            o = live_trial(port, broker.freeze, rng, f"blind{i}")
            kind = ("blind" if o.blind else "decided right" if o.decided
                    else "called off" if o.voided else "left waiting")
            tally[kind] += 1
            if o.voided:
                tally[f"  called off: {o.voided.split(':')[0]}"] += 1
            if o.blind or not (o.decided or o.voided):
                print(f"trial {i}: {kind}: {o}")
    finally:
        broker.stop()
    print(f"{args.trials} trials (seed {args.seed}) in {time.monotonic() - began:.0f} s:")
    for kind, n in sorted(tally.items()):
        print(f"  {kind}: {n}")
    return 0 if tally["blind"] == 0 and tally["left waiting"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
