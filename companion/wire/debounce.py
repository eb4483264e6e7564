"""A switch debouncer with the time passed in, shared by both boards.

A contact bounces for a few milliseconds and a standee wobbles when it is set down;
a new value is accepted only once the raw reading has held it for `stable_ms`.
Times are board milliseconds (`time.ticks_ms()`, wrapping at 2**30).
"""

_TICKS_MASK = (1 << 30) - 1


class Debouncer:
    """Holds the accepted value of one switch; `update` returns it when it changes."""

    def __init__(self, stable_ms, value):
        self.stable_ms = stable_ms
        self.value = value
        self._raw = value
        self._since = None

    def update(self, now_ms, raw):
        """Feed one raw reading taken at `now_ms`; the new value if accepted now, else None."""
        if raw != self._raw:
            self._raw = raw
            self._since = now_ms
        if raw == self.value:
            return None
        if (now_ms - self._since) & _TICKS_MASK < self.stable_ms:
            return None
        self.value = raw
        return raw
