"""The table model: which guns' receivers catch a badge's burst, and what the hands do.

Intents (`intent`, `lower`, `raise_gun`) plan where each hand goes; `detect` is asked once
per slot and answers with the mask of guns that saw that slot's badge (bit s-1 = gun of
seat s); `feedback` gives each hand its gun's lock LED, so an aimer with the lock steers
onto a single target. Static geometry is computed once, so a round costs little.
"""

from __future__ import annotations

import math
import random

from companion.tablesim.geometry import Table
from companion.tablesim.hand import GYRO_BIAS_DPS, LOWERED_EL, Hand, Move, Pointing, imu, lowered
from companion.tablesim.optics import Optics, paths

SWEEP_MARGIN_DEG = 12.0  # a sweep starts and ends this far beyond its two targets
RAISE_MS = 150.0  # a quick raise into a sweep
LOWER_MS = 400.0  # letting a gun down
KINDS = ("hold", "swing", "sweep", "between", "lower")


class TableModel:
    """A table of players with guns and worn badges; times in milliseconds."""

    def __init__(self, table: Table, rng: random.Random, *, optics: Optics | None = None,
                 hand: Hand | None = None, feedback: bool = False):
        self.table = table
        self.rng = rng
        self.optics = optics or Optics()
        self.hand = hand or Hand()
        self.with_feedback = feedback
        self.seats = [p.seat for p in table.places]
        self._paths = paths(self.optics, table)
        self._pairs: dict[int, list[tuple[int, tuple]]] = {}
        for b in self.seats:
            self._pairs[b] = [
                (g, tuple((p.forward, p.left, p.up, p.irradiance)
                          for p in self._paths[g, b] if p.irradiance > 0))
                for g in self.seats if g != b]
        self._edge_deg = self.optics.acceptance_deg + self.optics.penumbra_deg
        self._cos_edge = math.cos(math.radians(self._edge_deg))
        self._ambient = 1 - (1 - self.optics.ambient) ** len(self.seats)
        self._hidden = {p.seat for p in table.places if p.hides_badge}  # while aiming
        self._hands = {s: Pointing(self.hand, rng, (0.0, LOWERED_EL)) for s in self.seats}
        # gun -> the hand's wander_deg and the cosine beyond which no wander reaches (_far)
        self._far_of = {s: (-1.0, 1.0) for s in self.seats}
        self._bias = {s: (rng.uniform(-GYRO_BIAS_DPS, GYRO_BIAS_DPS),
                          rng.uniform(-GYRO_BIAS_DPS, GYRO_BIAS_DPS)) for s in self.seats}
        # gun -> planned aims [start, target or None, settled_at, not_steady_since]
        self._aims: dict[int, list[list]] = {s: [] for s in self.seats}
        self._last: dict[int, int] = {}
        self.now = 0.0

    # -- static geometry --------------------------------------------------------------

    def bearing(self, gun: int, seat: int) -> tuple[float, float]:
        """(azimuth, elevation) in degrees of seat's badge from gun, in the gun's frame."""
        p = self._paths[gun, seat][0]
        return p.az_deg, p.el_deg

    # -- the light --------------------------------------------------------------------

    def detect(self, t_ms: float, beacon_seat: int) -> int:
        """Mask of guns (bit s-1) whose receiver reports `beacon_seat`'s burst at t_ms;
        `beacon_seat` 0 is the dark slot, where only ambient light fires receivers. A badge
        its holder's grip covers sends nothing while the holder's gun is up."""
        self.now = t_ms
        rng = self.rng
        mask = 0
        if beacon_seat and not (beacon_seat in self._hidden
                                and not lowered_at_rest(self._hands[beacon_seat], t_ms)):
            cos_edge = self._cos_edge
            far_of = self._far_of
            optics = self.optics
            for gun, ways in self._pairs[beacon_seat]:
                hand = self._hands[gun]
                if not ways or lowered_at_rest(hand, t_ms):
                    continue  # blocked, or it points at the floor (and costs nothing)
                bx, by, bz = hand.base_axis(t_ms)
                wander, far = far_of[gun]
                if wander != hand.wander_deg:
                    wander, far = far_of[gun] = hand.wander_deg, self._far(hand.wander_deg)
                for fw, lf, uz, _ in ways:
                    if bx * fw + by * lf + bz * uz >= far:
                        break
                else:
                    continue  # too far off for any wander to bring it within the cut-off
                az, el = hand.at(t_ms)
                az, el = math.radians(az), math.radians(el)
                ce = math.cos(el)
                fx, lx, up = ce * math.cos(az), ce * math.sin(az), math.sin(el)
                for fw, lf, uz, irradiance in ways:
                    dot = fx * fw + lx * lf + up * uz
                    if dot <= cos_edge:
                        continue
                    p = optics.probability(math.degrees(math.acos(min(1.0, dot))), irradiance)
                    if p >= 1.0 or (p > 0.0 and rng.random() < p):
                        mask |= 1 << (gun - 1)
                        break
        if rng.random() < self._ambient:
            mask |= 1 << (rng.choice(self.seats) - 1)
        return mask

    def _far(self, wander_deg: float) -> float:
        """The cosine under which a path lies beyond the cut-off from wherever a hand
        `wander_deg` from its base points (with a thousandth of a degree for rounding)."""
        return math.cos(math.radians(min(180.0, self._edge_deg + wander_deg + 1e-3)))

    # -- the hands --------------------------------------------------------------------

    def intent(self, gun: int, kind: str, target: int | None = None, other: int | None = None,
               at_ms: float | None = None, speed_dps: float = 90.0,
               offset_deg: float | None = None,
               tremor_deg: tuple[float, float] | None = None) -> float:
        """Plan what gun's hand does from at_ms (default now); returns when it gets there.

        hold, swing: reach target (a new aim: new offset, tremor and roll); swing is a hold
        that starts on another target. between: point midway between target and other.
        sweep: raise, sweep across target then other at speed_dps, let the gun down.
        lower: let the gun down. `offset_deg`: a hold off by this much (a lazy aim)
        instead of the hand's usual offset; `tremor_deg`: a shaky hand's tremor range."""
        t = self.now if at_ms is None else at_ms
        pointing = self._hands[gun]
        az0, el0 = pointing.base(t)
        aims = [a for a in self._aims[gun] if a[0] < t]
        while len(aims) > 1 and aims[1][0] <= self.now:  # `feedback` reads the aim in
            del aims[0]  # force now and those planned after it; older ones are forgotten
        aims.append([t, None, t, None])
        self._aims[gun] = aims
        if kind in ("hold", "swing", "between"):
            assert target is not None, f"{kind} needs a target"
            aim = self.bearing(gun, target)
            if kind == "between":
                assert other is not None, "between needs two targets"
                aim2 = self.bearing(gun, other)
                aim = ((aim[0] + aim2[0]) / 2, (aim[1] + aim2[1]) / 2)
            daz, delv = (self.hand.draw_offset(self.rng, self.hand.offset_deg)
                         if offset_deg is None else Hand(offset_deg, "fixed").draw_offset(
                             self.rng, offset_deg))
            az1, el1 = aim[0] + daz, aim[1] + delv
            end = t + self.hand.reach_ms(math.hypot(az1 - az0, el1 - el0))
            pointing.aim_shakes(self.rng, tremor_deg)
            pointing.add(Move(t, end, az0, el0, az1, el1))
            if kind != "between":
                aims[-1][1:3] = target, end
                self._last[gun] = target
            return end
        if kind == "sweep":
            assert target is not None and other is not None, "sweep needs two targets"
            (a_az, a_el), (b_az, b_el) = self.bearing(gun, target), self.bearing(gun, other)
            span = math.hypot(b_az - a_az, b_el - a_el)
            uaz, uel = (b_az - a_az) / span, (b_el - a_el) / span
            m = SWEEP_MARGIN_DEG
            start = (a_az - m * uaz, a_el - m * uel)
            stop = (b_az + m * uaz, b_el + m * uel)
            end = t + (span + 2 * m) / speed_dps * 1000.0
            pointing.aim_shakes(self.rng)
            pointing.add(Move(t - RAISE_MS, t, *pointing.base(t - RAISE_MS), *start))
            pointing.add(Move(t, end, *start, *stop, linear=True))
            pointing.add(Move(end, end + LOWER_MS, *stop, stop[0], LOWERED_EL))
            return end
        if kind == "lower":
            pointing.add(Move(t, t + LOWER_MS, az0, el0, az0, LOWERED_EL))
            return t + LOWER_MS
        raise ValueError(f"unknown intent {kind!r}")

    def lower(self, gun: int) -> float:
        """Let gun down now."""
        return self.intent(gun, "lower")

    def raise_gun(self, gun: int) -> float:
        """Raise gun now onto the last target it held (or the seat across the table)."""
        target = self._last.get(gun) or self.seats[(self.seats.index(gun) + len(self.seats)
                                                    // 2) % len(self.seats)]
        return self.intent(gun, "hold", target)

    def at_rest(self, t_ms: float) -> bool:
        """Every gun lowered and still at t_ms, with nothing planned after."""
        return all(lowered_at_rest(p, t_ms) for p in self._hands.values())

    def quiet(self, t_ms: float, slots: int) -> bool:
        """Whether `slots` slots from t_ms would all see nothing: every gun at rest, and no
        ambient flash among them (drawn as `detect` would)."""
        return self.at_rest(t_ms) and self.rng.random() >= 1 - (1 - self._ambient) ** slots

    def raised(self, gun: int) -> bool:
        """Whether the hand holds the gun up now (the hub tells it from the IMU)."""
        hand = self._hands[gun]
        return not lowered_at_rest(hand, self.now) and not lowered(hand.at(self.now)[1])

    def imu(self, gun: int, t_ms: float) -> tuple[float, ...]:
        """What gun's IMU reads at t_ms: gyro (°/s) and accelerometer (g), its frame. A
        gun put down lies still: its gyro reads its bias alone."""
        hand = self._hands[gun]
        return imu(hand, t_ms, self._bias[gun], still=hand.resting(t_ms))

    def pointing(self, gun: int, t_ms: float) -> tuple[float, float]:
        """The receiver's axis (azimuth, elevation) at t_ms, in the gun's frame."""
        return self._hands[gun].at(t_ms)

    def feedback(self, gun: int, lock_state: int) -> None:
        """The lock LED gun's holder sees now (0 off, 1 steady, 2 blink). With feedback on,
        a holder whose lock is not steady for a reaction time corrects onto the target."""
        if not self.with_feedback:
            return
        now = self.now
        aim = None
        for planned in self._aims[gun]:
            if planned[0] <= now:
                aim = planned
        if aim is None or aim[1] is None or now < aim[2]:
            return
        if lock_state == 1:
            aim[3] = None
            return
        if aim[3] is None:
            aim[3] = now
            return
        if now - aim[3] < self.hand.reaction_ms:
            return
        pointing = self._hands[gun]
        az_t, el_t = self.bearing(gun, aim[1])
        daz, delv = self.hand.draw_offset(self.rng, self.hand.closed_loop_deg)
        end = now + self.hand.correct_ms
        pointing.correct(Move(now, end, *pointing.base(now), az_t + daz, el_t + delv))
        aim[2], aim[3] = end, None


def lowered_at_rest(hand: Pointing, t_ms: float) -> bool:
    """The hand's last move is over by t_ms and left the gun lowered."""
    last = hand.moves[-1]
    return last.t1 <= t_ms and lowered(last.el1)
