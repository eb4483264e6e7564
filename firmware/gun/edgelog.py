"""Receiver edges captured by a hard pin interrupt, for the main loop to decode.

Only `time` is touched and the pin is passed in, so the ring can be checked under the
unix port with a stand-in pin.
"""

import array
import time


class EdgeLog:
    """Receiver edges stamped by a hard interrupt into a ring, read out by the main loop.

    The interrupt only stores the time and level (no allocation, a few µs); the frame
    logic runs in the loop, where a late read costs nothing as the times are kept.
    """

    def __init__(self, size=64):
        self._t = array.array("i", [0] * size)
        self._level = bytearray(size)
        self._size = size
        self._head = 0
        self._tail = 0
        self._last_t = None
        self.lost = 0

    def irq(self, pin):
        head = self._head
        nxt = (head + 1) % self._size
        if nxt == self._tail:
            self.lost += 1
            return
        self._t[head] = time.ticks_us()
        self._level[head] = pin.value()
        self._head = nxt

    def drain(self, gun, now_ms):
        """Hand the edges captured so far to `gun`."""
        head = self._head
        while self._tail != head:
            t = self._t[self._tail]
            if self._last_t is not None:
                gun.edge(now_ms, time.ticks_diff(t, self._last_t), self._level[self._tail])
            self._last_t = t
            self._tail = (self._tail + 1) % self._size
