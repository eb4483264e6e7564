"""Building IR pulse trains in CPython: what a receiver would see, good or bad.

Trains are durations in µs, mark first (as `irframe.encode` makes them); edges are
`[dt_us, level]` pairs as the gun's interrupt hands them to `irframe.Receiver`.
"""

from companion.wire import irframe

SILENCE_US = 20000


def edges(durations, lead_us=SILENCE_US):
    """The receiver's edges for a train that follows `lead_us` of silence."""
    out = [[lead_us, 0]]
    for i, d in enumerate(durations):
        out.append([d, 1 if i % 2 == 0 else 0])
    return out


def distort(durations, stretch_us):
    """A TSOP's output: every mark `stretch_us` longer (or shorter), periods unchanged."""
    out = list(durations)
    for i in range(0, len(out), 2):
        out[i] += stretch_us
        if i + 1 < len(out):
            out[i + 1] -= stretch_us
    return out


def marks(durations, start_us):
    """The [start, end) of each mark of a train starting at `start_us`."""
    spans, t = [], start_us
    for i, d in enumerate(durations):
        if i % 2 == 0:
            spans.append((t, t + d))
        t += d
    return spans


def overlay(*trains):
    """What one receiver sees from several beacons at once: [(start_us, durations)]."""
    spans = sorted(s for start, d in trains for s in marks(d, start))
    merged = [list(spans[0])]
    for a, b in spans[1:]:
        if a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    out = []
    for i, (a, b) in enumerate(merged):
        if i:
            out.append(a - merged[i - 1][1])
        out.append(b - a)
    return out


def frame_edges(seat):
    return edges(irframe.encode(seat))
