"""What counts as an aim: one rule, used by the hub (lock LED), the bridge and the referee.

A *look* is one round of one gun: a mask of the seats whose badge it saw (bit s-1 =
seat s). People hold a constant offset of a few degrees, so looks cannot vote an aim
into existence; what tells a held aim from a sweep is time. A target counts only once
it was seen in the first and the last look of a hold window of whole rounds and in
all but at most one look between. A sweep at ω through an acceptance of ±a stays
2a/ω inside (333 ms at 60°/s for ±10°), less than the 500 ms window, so fast sweeps
never count that way; a slow one (2a/ω longer than the hold: under 40°/s) would, so a
look counts only while the gun is still (`still_look`, the gun's IMU: companion/wire/
motion.py): a look of a gun turning faster than 7 °/s is a look that saw nothing.
"""

HELD = "held"
AMBIGUOUS = "ambiguous"
NONE = "none"

HOLD_MS = 500  # the hold window; shorter than the ~1 s people take to acquire a target
ACCEPTANCE_DEG = 10  # the receiver's half-angle: a sweep stays 2a/ω inside it
LOCK_LOOKS = 3  # looks the aimer's lock LED sums up (54 ms at 8 seats)
MISSES_TOLERATED = 1  # looks between the first and the last that may miss the target


def window_rounds(hold_ms, round_us):
    """Whole rounds in a hold window: ceil(hold_ms * 1000 / round_us)."""
    return -(-hold_ms * 1000 // round_us)


def round_fits(hold_ms, round_us):
    """Whether a round is short enough for the rule: at most a third of the hold."""
    return 3 * round_us <= hold_ms * 1000


def still_look(mask, still):
    """The look the rule takes: what the gun saw, or nothing while it moves."""
    return mask if still else 0


def _bits(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def lock(masks):
    """The aimer's indicator from the last LOCK_LOOKS looks: 0 off, 1 steady, 2 blink."""
    seen = 0
    for m in masks[-LOCK_LOOKS:]:
        seen |= m
    if not seen:
        return 0
    return 1 if _bits(seen) == 1 else 2


class AimTracker:
    """The aim of one gun, look after look; `look` returns each change of it.

    A change is `(state, value, t_ms)`: `(HELD, seat, since)`, `(AMBIGUOUS, mask, t)`
    or `(NONE, 0, t)`, stamped as aimrule's module docstring and firmware/PROTOCOL.md
    say: a hold from the first look of its window, a release at the last look that saw
    the target. `state`, `value` and `since` hold the current aim.
    """

    def __init__(self, window):
        if window < 2:
            raise ValueError("a hold window needs two looks at least")
        self.window = window
        self._t = [0] * window  # ring of the last `window` looks
        self._m = [0] * window
        self._next = 0  # where the next look goes; the oldest once full
        self._count = 0
        self.state = NONE
        self.value = 0
        self.since = None
        self._last_seen = None  # last look that saw the aim's target(s)
        self._misses = 0  # looks in a row without them

    def masks(self, n):
        """The masks of the last `n` looks (fewer before that many), oldest first."""
        n = min(n, self._count)
        w = self.window
        return [self._m[(self._next - n + i) % w] for i in range(n)]

    def look(self, t_ms, mask):
        """Account for one look at `t_ms`; the change it makes, or None."""
        self._t[self._next] = t_ms
        self._m[self._next] = mask
        self._next = (self._next + 1) % self.window
        if self._count < self.window:
            self._count += 1
        if self.state == NONE:
            return self._qualify()
        targets = 1 << (self.value - 1) if self.state == HELD else self.value
        if mask & ~targets:  # another target: ambiguous, or more so
            return self._set(AMBIGUOUS, targets | self._window_mask(), t_ms)
        if mask:
            self._last_seen = t_ms
            self._misses = 0
        else:
            self._misses += 1
            if self._misses > MISSES_TOLERATED:
                return self._set(NONE, 0, self._last_seen)
        return self._qualify() if self.state == AMBIGUOUS else None

    def _qualify(self):
        """HELD or AMBIGUOUS once the full window shows a target held through it."""
        if self._count < self.window:
            return None
        w = self.window
        first = self._next  # the oldest look of the full ring
        last = (first - 1) % w
        candidates = self._m[first] & self._m[last]
        if not candidates:
            return None
        held = 0
        for bit in range(16):
            b = 1 << bit
            if b > candidates:
                break
            if candidates & b and self._misses_between(b) <= MISSES_TOLERATED:
                held |= b
        if not held:
            return None
        seen = self._window_mask()
        if seen == held and _bits(held) == 1:
            return self._set(HELD, _bits(held - 1) + 1, self._t[first])
        if self.state == AMBIGUOUS:
            return None  # still ambiguous: nothing new to say
        return self._set(AMBIGUOUS, seen, self._t[first])

    def _misses_between(self, bit):
        w = self.window
        misses = 0
        for i in range(1, w - 1):
            if not self._m[(self._next + i) % w] & bit:
                misses += 1
        return misses

    def _window_mask(self):
        seen = 0
        for i in range(self._count):
            seen |= self._m[(self._next - 1 - i) % self.window]
        return seen

    def _set(self, state, value, t_ms):
        self.state = state
        self.value = value
        self.since = t_ms
        if state != NONE:
            self._last_seen = self._t[(self._next - 1) % self.window]  # this look saw it
        self._misses = 0
        return (state, value, t_ms)
