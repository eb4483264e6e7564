"""IR beacon frames: a seat number as a train of 38 kHz bursts, and back.

The hub plays `encode(seat)` on a standee's beacon in that seat's time slot; a gun's
receiver (TSOP, active low) turns the bursts into edges, `Receiver` turns the edges
into durations and `decode` into a seat. The simulator uses the same functions, so a
simulated gun is fooled exactly as a real one.

A frame is a list of durations in µs, alternating mark (carrier on) and space, that
starts and ends with a mark (hardware/IR.md has the numbers and why):

    leader mark 4U, leader space 2U,
    8 bits, LSB first: the 4 seat bits, then their complement;
        each bit is a mark U and a space U (0) or 3U (1),
    stop mark U.

The complement makes every frame the same length (4 ones, 4 zeros) and is the check
field: noise, a truncated frame or two beacons overlapping almost never give a seat
whose complement also matches, and the strict mark and period windows reject the rest.
Bits are told apart by their period (mark + space, edge to edge of the same sense),
which the receiver's output keeps even when it stretches or shrinks its marks.
"""

UNIT_US = 400  # 15 carrier cycles at 38 kHz: above the receivers' 10-cycle minimum
BITS = 4
MAX_SEAT = (1 << BITS) - 1  # seats 1..15; 0 is never sent
LEADER_MARK_US = 4 * UNIT_US
LEADER_SPACE_US = 2 * UNIT_US
FRAME_US = 6 * UNIT_US + BITS * 2 * UNIT_US + BITS * 4 * UNIT_US + UNIT_US
DURATIONS = 2 + 4 * BITS + 1  # leader pair, a mark and a space per bit, stop mark
MIN_GAP_US = 1000  # silence after a frame before another beacon may send
MIN_SLOT_US = FRAME_US + MIN_GAP_US  # the shortest beacon slot (hub `SLOTS`)

# Acceptance windows (µs). A TSOP382/4838 may output a mark up to ~150 µs longer or
# shorter than its burst, but keeps the period (mark + space) within a few tens of µs;
# the windows allow half a unit either way (a leader: 300 µs), and no more, so that
# merged marks of two colliding beacons fall outside them.
_MARK = (UNIT_US // 2, UNIT_US * 3 // 2)
_LEADER_MARK = (LEADER_MARK_US - 300, LEADER_MARK_US + 300)
_LEADER_PERIOD = (LEADER_MARK_US + LEADER_SPACE_US - 300, LEADER_MARK_US + LEADER_SPACE_US + 300)
_PERIOD0 = (2 * UNIT_US - UNIT_US // 2, 2 * UNIT_US + UNIT_US // 2)
_PERIOD1 = (4 * UNIT_US - UNIT_US // 2, 4 * UNIT_US + UNIT_US // 2)


def _within(value, window):
    return window[0] <= value <= window[1]


def encode(seat):
    """The durations (µs, mark first) that carry `seat` (1..MAX_SEAT)."""
    if not 1 <= seat <= MAX_SEAT:
        raise ValueError("seat out of range")
    word = seat | ((~seat & MAX_SEAT) << BITS)
    out = [LEADER_MARK_US, LEADER_SPACE_US]
    for i in range(2 * BITS):
        out.append(UNIT_US)
        out.append(3 * UNIT_US if (word >> i) & 1 else UNIT_US)
    out.append(UNIT_US)
    return out


def decode(durations):
    """The seat carried by one frame's durations (mark first), or None if it is not a frame."""
    if len(durations) != DURATIONS:
        return None
    if not _within(durations[0], _LEADER_MARK):
        return None
    if not _within(durations[0] + durations[1], _LEADER_PERIOD):
        return None
    word = 0
    for i in range(2 * BITS):
        mark = durations[2 + 2 * i]
        period = mark + durations[3 + 2 * i]
        if not _within(mark, _MARK):
            return None
        if _within(period, _PERIOD1):
            word |= 1 << i
        elif not _within(period, _PERIOD0):
            return None
    if not _within(durations[-1], _MARK):
        return None
    seat = word & MAX_SEAT
    if word >> BITS != ~seat & MAX_SEAT or seat == 0:
        return None
    return seat


class Receiver:
    """Turns the receiver's edges into frames.

    Feed `edge(dt_us, level)` with each change of the receiver output: the time since
    the previous change and the new level (0 while a burst is received, 1 otherwise).
    The caller does the clock arithmetic, so this stays pure. It returns a seat
    when a frame ends, else None. A mark that looks like a leader always starts a
    new frame, so a broken frame costs only itself.
    """

    def __init__(self):
        self._durations = []
        self._in_frame = False

    def edge(self, dt_us, level):
        """Account for one edge, `dt_us` after the previous one; `level` is the new level."""
        if level:  # a mark just ended
            if _within(dt_us, _LEADER_MARK):
                self._durations = [dt_us]
                self._in_frame = True
                return None
            if not self._in_frame:
                return None
            self._durations.append(dt_us)
            if len(self._durations) == DURATIONS:
                self._in_frame = False
                return decode(self._durations)
            return None
        if self._in_frame:  # a space just ended
            self._durations.append(dt_us)
            if len(self._durations) >= DURATIONS:
                self._in_frame = False
        return None
