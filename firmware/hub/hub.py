"""What the standee hub knows and says, with no hardware in it.

The hub owns the beacon schedule (which seat's beacon sends in which slot, and how
long a slot lasts; the host may change both with `SLOTS`) and the standee switches
(`POST seat up|down`, debounced). The hardware layer (main.py) plays the frames and
feeds it switch readings and the time.
"""

import irframe
import proto
from debounce import Debouncer

MAX_SLOT_US = 50000


class Hub(proto.Board):
    kind = "hub"

    def __init__(self, board_id, seats, slot_us, debounce_ms, ups):
        """`seats`: the wired seats, switch and beacon i serving seats[i]; `ups`: their levels."""
        proto.Board.__init__(self, board_id, 0)
        self.seats = list(seats)
        self.order = list(seats)
        self.slot_us = slot_us
        self._next = 0
        self._posts = {}
        for i, seat in enumerate(seats):
            self._posts[seat] = Debouncer(debounce_ms, ups[i])

    def next_seat(self):
        """The seat whose beacon sends in the coming slot."""
        seat = self.order[self._next % len(self.order)]
        self._next = (self._next + 1) % len(self.order)
        return seat

    def switch(self, now_ms, seat, up):
        """One reading of a standee switch (1 while the standee stands)."""
        if self._posts[seat].update(now_ms, up) is not None:
            self._post(now_ms, seat)

    def readings(self, now_ms):
        for seat in self.seats:
            self._post(now_ms, seat)

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
        if not irframe.MIN_SLOT_US <= slot_us <= MAX_SLOT_US:
            return "range"
        for seat in order:
            if seat not in self._posts or order.count(seat) > 1:
                return "range"
        self.slot_us = slot_us
        self.order = order
        self._next = 0
        self.send(now_ms, "OK", "SLOTS")
        return None

    def _post(self, now_ms, seat):
        self.send(now_ms, "POST", seat, "up" if self._posts[seat].value else "down")
