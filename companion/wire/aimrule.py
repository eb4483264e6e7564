"""What counts as an aim, written once for the hub, the bridge and the referee.

A look is one round of one gun: a bit mask of the seats it saw (bit s-1 = seat s). A target
is held when it was seen in the first and the last look of a window of whole rounds and in
all but at most one look between, with no other target seen; a sweep never stays that long.
"""

HELD = "HELD"
AMBIGUOUS = "AMBIGUOUS"
NONE = "NONE"
LOCK_LOOKS = 3


def window_rounds(hold_ms, round_us):
    """Whole rounds in a hold window."""
    return -(-hold_ms * 1000 // round_us)


def _seat(bit):
    seat = 0
    while bit:
        bit >>= 1
        seat += 1
    return seat


def _qualified(looks):
    """Targets seen in the first and last look and all but one between; and all seen."""
    seen = 0
    for look in looks:
        seen |= look[1]
    candidates = looks[0][1] & looks[-1][1]
    qualified = 0
    while candidates:
        bit = candidates & -candidates
        candidates ^= bit
        misses = 0
        for look in looks[1:-1]:
            if not look[1] & bit:
                misses += 1
                if misses > 1:
                    break
        if misses <= 1:
            qualified |= bit
    return qualified, seen


class AimTracker:
    """One gun's aim from its looks; `look` returns a change `(state, value, t_ms)` or None."""

    def __init__(self, window):
        self.window = window
        self.looks = []
        self.state = NONE
        self.value = 0
        self.misses = 0
        self.last_seen = None

    def _change(self, state, value, t_ms):
        self.state = state
        self.value = value
        self.misses = 0
        return (state, value, t_ms)

    def look(self, t_ms, mask):
        looks = self.looks
        looks.append((t_ms, mask))
        if len(looks) > self.window:
            looks.pop(0)
        if self.state == HELD:
            bit = 1 << (self.value - 1)
            if mask & ~bit:
                return self._change(AMBIGUOUS, mask | bit, t_ms)
            if mask:
                self.misses = 0
                self.last_seen = t_ms
                return None
            self.misses += 1
            return self._change(NONE, 0, self.last_seen) if self.misses >= 2 else None
        if self.state == AMBIGUOUS:
            if mask:
                self.misses = 0
                self.last_seen = t_ms
            else:
                self.misses += 1
                if self.misses >= 2:
                    return self._change(NONE, 0, self.last_seen)
        if len(looks) < self.window:
            return None
        qualified, seen = _qualified(looks)
        if not qualified:
            return None
        self.last_seen = t_ms
        if qualified == seen and not seen & (seen - 1):
            return self._change(HELD, _seat(seen), looks[0][0])
        if self.state == AMBIGUOUS:
            return None
        return self._change(AMBIGUOUS, seen, looks[0][0])


def lock(masks):
    """The aimer's indicator from the last looks: 0 off, 1 steady (one target), 2 blink."""
    seen = 0
    for mask in masks[-LOCK_LOOKS:]:
        seen |= mask
    if not seen:
        return 0
    return 1 if not seen & (seen - 1) else 2
