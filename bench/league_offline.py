"""How long the venue takes to see a silent table go: a table's broker frozen (SIGSTOP, as
a table whose power or Wi-Fi dies without closing anything), then the time until the venue's
broker publishes that table's bridge state `0` (its last will), which the venue page shows
as offline.

    .venv/bin/python bench/league_offline.py [--trials 5]

Real Mosquitto processes: the venue's (companion/league/venue_broker.py) and the table's own
with its bridge (companion/league/bridge.py). Results are in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "league")]

from test_bridge import table_broker  # noqa: E402
from venue import Listener, Venue  # noqa: E402

from companion.league import topics  # noqa: E402
from companion.league.bridge import KEEPALIVE_S  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=5)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-offline-"))
    venue = Venue(tmp / "venue", ("cafe-1",))
    state = topics.bridge_state("cafe-1")
    at_venue = Listener(venue.port, "league", venue.credentials["league"], "cashnguns/#")
    took = []
    try:
        for trial in range(args.trials):
            table = table_broker(tmp / f"table{trial}", venue, "cafe-1")
            at_venue.expect(state, lambda p: p == b"1")
            time.sleep(0.5 + trial * 1.7 % KEEPALIVE_S)  # frozen anywhere between two pings
            began = time.monotonic()
            assert table.process is not None
            os.kill(table.process.pid, signal.SIGSTOP)
            at_venue.expect(state, lambda p: p == b"0", timeout=60)
            took.append(time.monotonic() - began)
            os.kill(table.process.pid, signal.SIGCONT)
            table.stop()
            at_venue.seen.clear()
    finally:
        at_venue.close()
        venue.stop()
    print(f"bridge keepalive_interval {KEEPALIVE_S} s; a frozen table seen offline after "
          + ", ".join(f"{t:.1f}" for t in took) + f" s (worst {max(took):.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
