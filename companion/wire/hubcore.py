"""What the hub knows and says, with no hardware in it: the same code on the board
(MicroPython, flat in /lib) and in the companion's simulated hub (CPython).

A round is a dark slot (no badge on: whatever a receiver reports there is noise),
then one slot per seat in play. The hardware layer reports each slot as the mask of
receivers that saw it; after a round's last slot the hub knows each gun's look (the
badges it saw), reports the round as `SEEN`, and feeds the looks to one aim tracker
per gun, whose last looks light that gun's lock LED. A gun's own seat is masked out of
its looks, for `SEEN` and the lock LED alike: its holder's badge reaches it only as a
reflection (a hand, a sleeve, the cards) or as supply ripple, never as a target. Each
gun's IMU samples go to its `motion.GunMotion`: raised or lowered (`GUN`), and whether
it is still; a look of a moving gun counts for nothing (`aimrule.still_look`), for the
aim and the lock LED alike, and `SEEN` says which guns moved. Standee inputs arrive raw
and leave debounced. firmware/PROTOCOL.md has the lines.
"""

try:
    from . import aimrule, linecodec, motion, proto
    from .debounce import Debouncer
except ImportError:  # flat in a board's /lib
    import aimrule  # type: ignore[import-not-found, no-redef]
    import linecodec  # type: ignore[import-not-found, no-redef]
    import motion  # type: ignore[import-not-found, no-redef]
    import proto  # type: ignore[import-not-found, no-redef]
    from debounce import Debouncer  # type: ignore[import-not-found, no-redef]

MIN_SLOT_US, MAX_SLOT_US = linecodec.SLOT_US
STAT_MS = 1000
ROUND_MASK = linecodec.ROUND_WRAP - 1  # round numbers on the wire wrap at 2**16


class Hub(proto.Board):
    """The hub's slots, looks, aims, locks, guns' motion, inputs and lines."""

    kind = "hub"

    def __init__(self, board_id, seats, slot_us, hold_ms, debounce_ms, posts):
        """`seats`: the wired seats; `posts`: their standees now (bit s-1 = seat s, 1 =
        standing). A gun counts as lowered until its IMU answers."""
        proto.Board.__init__(self, board_id, 0)
        self.seats = list(seats)
        self.hold_ms = hold_ms
        self.rounds = 0  # rounds done since boot
        self.late = 0  # slots run late: counted by the hardware layer
        self.noise = 0  # detections in dark slots
        self.dropped = 0  # lines the link could not take: counted by the hardware layer
        self.imu_errors = 0  # IMU reads that failed: counted by the hardware layer
        self.guns = {}
        self._posts = {}
        for s in self.seats:
            self.guns[s] = motion.GunMotion()
            self._posts[s] = Debouncer(debounce_ms, 1 if posts & (1 << (s - 1)) else 0)
        self._last_stat = None
        self._play(slot_us, self.seats)

    def _play(self, slot_us, order):
        """Take a new slot length and order; a round in progress is dropped."""
        self.slot_us = slot_us
        self.order = list(order)
        self._schedule = [0]
        self._schedule.extend(self.order)  # MicroPython has no [0, *a]
        self._guns = 0  # mask of the receivers in play
        for s in self.order:
            self._guns |= 1 << (s - 1)
        window = aimrule.window_rounds(self.hold_ms, self.round_us())
        self.trackers = {}
        self.locks = {}
        for s in self.order:
            self.trackers[s] = aimrule.AimTracker(window)
            self.locks[s] = 0
        self._looks = [0] * len(self.order)
        self._next = -1  # index of the expected slot in the schedule; -1: wait for dark
        self._reported = False  # the last round was sent as SEEN with something seen

    def schedule(self):
        """The seats of one round's slots, in order: 0 (the dark slot) first."""
        return list(self._schedule)

    def round_us(self):
        return self.slot_us * len(self._schedule)

    def round_number(self):
        """The number of the round in progress, as on the wire."""
        return self.rounds & ROUND_MASK

    def slot(self, now_ms, seat, rx_mask):
        """One slot done: `rx_mask` = the receivers that saw slot `seat`'s burst (bit s-1 =
        gun of seat s; `seat` 0 is the dark slot). Slots out of schedule order (a round
        cut short, or one from before a `SLOTS`) void their round."""
        if seat == 0:
            self._next = 0
            for i in range(len(self._looks)):
                self._looks[i] = 0
        if self._next < 0 or self._schedule[self._next] != seat:
            self._next = -1
            return
        rx_mask &= self._guns
        if seat == 0:
            while rx_mask:
                rx_mask &= rx_mask - 1
                self.noise += 1
            self._next += 1
            return
        bit = 1 << (seat - 1)
        rx_mask &= ~bit  # a gun's own badge: only ever a reflection, never a target
        if rx_mask:
            for i, gun in enumerate(self.order):
                if rx_mask >> (gun - 1) & 1:
                    self._looks[i] |= bit
        self._next += 1
        if self._next == len(self._schedule):
            self._next = -1
            self._end_round(now_ms)

    def _end_round(self, now_ms):
        seen = False
        moving = 0
        for i, gun in enumerate(self.order):
            if self._looks[i]:
                seen = True
            if not self.guns[gun].still():
                moving |= 1 << (gun - 1)
        if seen or self._reported:
            masks = ",".join([f"{m:x}" for m in self._looks])
            self.send(now_ms, "SEEN", self.round_number(), masks, f"{moving:x}")
        self._reported = seen
        self.rounds += 1
        for i, gun in enumerate(self.order):
            tracker = self.trackers[gun]
            tracker.look(now_ms, aimrule.still_look(self._looks[i], not moving >> (gun - 1) & 1))
            self.locks[gun] = aimrule.lock(tracker.masks(aimrule.LOCK_LOOKS))

    def lock_mask(self, blink_on):
        """The lock LEDs to light now (bit s-1 = seat s): steady for one target, blinking
        (lit while `blink_on`) for two or more."""
        lit = 0
        for gun, state in self.locks.items():
            if state == 1 or (state == 2 and blink_on):
                lit |= 1 << (gun - 1)
        return lit

    def inputs(self, now_ms, post_mask):
        """Raw readings of the standee reeds (1 = standing)."""
        for s in self.seats:
            if self._posts[s].update(now_ms, 1 if post_mask & (1 << (s - 1)) else 0) is not None:
                self._post(now_ms, s)

    def imu(self, now_ms, seat, sample):
        """One IMU sample of seat's gun: (gx, gy, gz) in °/s, (ax, ay, az) in g, its frame;
        None when the read failed (counted in `STAT`)."""
        gun = self.guns[seat]
        if sample is None:
            self.imu_errors += 1
            changed = gun.lost(now_ms)
        else:
            changed = gun.update(now_ms, sample[0], sample[1], sample[2], sample[3], sample[4],
                                 sample[5])
        if changed:
            self._gun(now_ms, seat)

    def readings(self, now_ms):
        for s in self.seats:
            self._gun(now_ms, s)
            self._post(now_ms, s)
        self._slots(now_ms)

    def heartbeat(self):
        return (self.round_number(),)

    def tick(self, now_ms):
        proto.Board.tick(self, now_ms)
        if self._last_stat is None or proto.elapsed(now_ms, self._last_stat) >= STAT_MS:
            self._last_stat = now_ms
            self.send(now_ms, "STAT", self.rounds, self.late, self.noise, self.dropped,
                      self.imu_errors)

    def command(self, name, args, now_ms):
        if name != "SLOTS":
            return "unknown"
        if len(args) != 2:
            return "syntax"
        try:
            slot_us = int(args[0])
            order = [int(s) for s in args[1].split(",")]
        except ValueError:
            return "syntax"
        if not MIN_SLOT_US <= slot_us <= MAX_SLOT_US:
            return "range"
        for seat in order:
            if seat not in self._posts or order.count(seat) > 1:
                return "range"
        if not aimrule.round_fits(self.hold_ms, slot_us * (len(order) + 1)):
            return "range"
        self._play(slot_us, order)
        self.send(now_ms, "OK", "SLOTS")
        return None

    def _gun(self, now_ms, seat):
        """`GUN`: raised or lowered, elevation and rate (`-` before the IMU answered)."""
        gun = self.guns[seat]
        el = "-" if gun.el is None else max(-90, min(90, round(gun.el)))  # (a gun hanging
        # straight down reads a little past -90 with the gyro's noise: the line says -90)
        rate = "-" if gun.el is None else min(linecodec.MAX_RATE, round(gun.rate))
        self.send(now_ms, "GUN", seat, "up" if gun.raised else "down", el, rate)

    def _post(self, now_ms, seat):
        self.send(now_ms, "POST", seat, "up" if self._posts[seat].value else "down")

    def _slots(self, now_ms):
        self.send(now_ms, "SLOTS", self.slot_us, ",".join([str(s) for s in self.order]))
