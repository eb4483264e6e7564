"""The simulated hub: the hub firmware's own core on a pseudo-terminal, fed by the table.

`companion.wire.hubcore.Hub` is the code the RP2040 runs; here its slots are timed by the
companion's clock (a FakeClock in tests moves them) and each slot's detections come from
the 3-D table model (`TableModel.detect`). The lines it writes are the real protocol,
read by the serial backend like the real hub's. Each round starts with every gun's IMU
sample (`TableModel.imu`: the hand's motion as the chip reads it), as the firmware reads
them; after every round each gun's lock state goes back to the model, so a simulated
hand sees its lock LED as a player would.

The scheduler polls it (`poll`, `next_deadline`): each poll runs the slots due since the
last one, reads the host's commands and writes the lines, so rounds run in batches of
`BATCH_MS` (the lines' board times stay exact). While every gun rests lowered, once the
firmware has seen a whole aim window of empty rounds (its trackers then hold nothing that
more empty rounds could change), a round the model says is empty (no gun up, no ambient
flash) is counted without playing its slots, and the polls come at the heartbeat's pace
(`QUIET_BATCH_MS`): a quiet table costs the companion almost nothing, and the lines are
the same; the guns' IMUs are then read every `QUIET_IMU_MS`, so the hub keeps learning
their gyros' bias at rest, as the firmware does.
"""

from __future__ import annotations

from typing import Any

from companion.clock import Clock
from companion.sensors.sim.pty import PtyPort
from companion.wire import hubcore
from companion.wire.linecodec import T_WRAP

BATCH_MS = 20.0
QUIET_BATCH_MS = 100.0  # the heartbeat's period: all a quiet table has to say
MAX_BEHIND_MS = 2000.0  # a clock that jumped further: the slots in between ran late
QUIET_IMU_MS = 100.0  # the IMUs' pace while the table is quiet


def mask(seats: Any) -> int:
    out = 0
    for s in seats:
        out |= 1 << (s - 1)
    return out


class SimHub:
    def __init__(self, model: Any, seats: tuple[int, ...], slot_us: int, hold_ms: float,
                 debounce_ms: float, link_path: str, clock: Clock,
                 feedback: bool = True, board_id: str = "hub") -> None:
        self.model, self.seats, self.clock, self.feedback = model, seats, clock, feedback
        self.port = PtyPort(link_path)
        self.posts = mask(seats)  # standing standees; all start standing
        self.cut = 0  # seats whose pod cable is out: badge dark, inputs open
        self.hung = False  # the firmware stopped: nothing runs, nothing is written
        self._firmware = (board_id, seats, slot_us, int(hold_ms), int(debounce_ms))
        self._boot = self._polled = clock.now_ms()
        self.core = self._power_on()

    def board_ms(self, t_ms: float) -> int:
        return int(t_ms - self._boot) % T_WRAP

    def start(self) -> None:
        self.port.plug()
        self.core.hello(self.board_ms(self.clock.now_ms()))
        self._flush()

    def stop(self) -> None:
        self.port.unplug()

    def reboot(self) -> None:
        """Power cycled (after `hang`): the firmware starts afresh and says hello."""
        self._boot = self.clock.now_ms()
        self.core = self._power_on()
        self.hung = False
        self.core.hello(0)
        self._flush()

    def _power_on(self) -> hubcore.Hub:
        self._slot_ms = 0.0  # board time of the next slot
        self._slot_i = 0  # its index in the schedule
        self._quiet_rounds = 0  # whole rounds in a row in which no gun saw anything
        self._imu_ms = -QUIET_IMU_MS  # board time of the last IMU samples
        core = hubcore.Hub(*self._firmware, self._post_mask())
        self._window = max(t.window for t in core.trackers.values())
        return core

    # -- the scheduler's interface
    def next_deadline(self) -> float:
        quiet = self._quiet_rounds >= self._window and self.model.at_rest(self._polled)
        return self._polled + (QUIET_BATCH_MS if quiet else BATCH_MS)

    def poll(self, now_ms: float) -> None:
        self._polled = now_ms
        if self.hung:
            return
        board_now = now_ms - self._boot
        for line in self.port.read_lines():
            self.core.receive(line, self.board_ms(now_ms))
        if board_now - self._slot_ms > MAX_BEHIND_MS:
            skipped = int((board_now - self._slot_ms) * 1000 // self.core.slot_us)
            self.core.late += skipped
            self._slot_ms += skipped * self.core.slot_us / 1000
            self._slot_i = 0  # the round in progress is void; the hub waits for a dark slot
        while self._slot_ms <= board_now:
            self._run_slot()
        self.core.inputs(int(board_now), self._post_mask())
        self.core.tick(int(board_now))
        self._flush()

    def _run_slot(self) -> None:
        if (self._slot_i == 0 and self._quiet_rounds >= self._window
                and self.model.quiet(self._boot + self._slot_ms, len(self.core.schedule()))):
            if self._slot_ms - self._imu_ms >= QUIET_IMU_MS:
                self._read_imus()
            self.core.rounds += 1  # an empty round, as the firmware would count it
            self._slot_ms += self.core.round_us() / 1000
            return
        schedule = self.core.schedule()
        if self._slot_i >= len(schedule):
            self._slot_i = 0
        seat = schedule[self._slot_i]
        if self._slot_i == 0:
            self._read_imus()
        t_ms = self._boot + self._slot_ms
        rx = 0 if seat and self.cut >> (seat - 1) & 1 else self.model.detect(t_ms, seat)
        self.core.slot(int(self._slot_ms) % T_WRAP, seat, rx & ~self.cut)
        self._slot_i += 1
        self._slot_ms += self.core.slot_us / 1000
        self._quiet_rounds = 0 if rx else self._quiet_rounds
        if self._slot_i == len(schedule):
            self._slot_i = 0
            self._quiet_rounds += 1
            if self.feedback:
                for gun, lock in self.core.locks.items():
                    self.model.feedback(gun, lock)

    def _read_imus(self) -> None:
        """Every wired gun's IMU sample now; a cut cable's IMU does not answer."""
        self._imu_ms = self._slot_ms
        board_ms = int(self._slot_ms) % T_WRAP
        for gun in self.seats:
            cut = self.cut >> (gun - 1) & 1
            self.core.imu(board_ms, gun,
                          None if cut else self.model.imu(gun, self._boot + self._slot_ms))

    def _post_mask(self) -> int:
        return self.posts & ~self.cut

    def _flush(self) -> None:
        core = self.core
        for line in core.out:
            before = self.port.overflows
            self.port.write(line)
            core.dropped += self.port.overflows - before
        core.out.clear()
