"""What a gun board knows and says, with no hardware in it.

It turns the IR receiver's edges into the seat it aims at (`AIM`, sent on every
change, `-` once no frame came for `hold_ms`) and the tilt switch into `TILT`.
The hardware layer (main.py) feeds it edges, switch readings and the time.
"""

import irframe
import proto
from debounce import Debouncer


class Gun(proto.Board):
    kind = "gun"

    def __init__(self, board_id, seat, hold_ms, debounce_ms, raised):
        proto.Board.__init__(self, board_id, seat)
        self.hold_ms = hold_ms
        self.aim = None
        self.frames = 0
        self._receiver = irframe.Receiver()
        self._seen_ms = 0
        self._tilt = Debouncer(debounce_ms, raised)

    @property
    def raised(self):
        return self._tilt.value

    def edge(self, now_ms, dt_us, level):
        """The receiver output changed to `level`, `dt_us` after its previous change."""
        seat = self._receiver.edge(dt_us, level)
        if seat is None:
            return
        self.frames += 1
        self._seen_ms = now_ms
        if seat != self.aim:
            self.aim = seat
            self.send(now_ms, "AIM", seat)

    def tilt(self, now_ms, raised):
        """One reading of the tilt switch (1 when the gun is raised)."""
        if self._tilt.update(now_ms, raised) is not None:
            self.send(now_ms, "TILT", raised)

    def tick(self, now_ms):
        proto.Board.tick(self, now_ms)
        if self.aim is not None and proto.elapsed(now_ms, self._seen_ms) >= self.hold_ms:
            self.aim = None
            self.send(now_ms, "AIM", "-")

    def readings(self, now_ms):
        self.send(now_ms, "AIM", "-" if self.aim is None else self.aim)
        self.send(now_ms, "TILT", self.raised)
