"""The aim bench's scenes: scripted hands on a simulated table, through the hub's motion
and aim rule and the referee's window around "three" (bench/aim_accuracy.py runs them).

Each gun gets one intent (hold a target from before "three", swing to another target
arriving around "three", sweep across two neighbours at 10 to 200 °/s, point between two
neighbours, or lower the gun; with grips also lazy holds, 6 to 8° off, and shaky ones, a
tremor of 0.3 to 0.5°). The hub's slots (2000 us, a dark slot first) ask
`TableModel.detect`; each gun's IMU goes through the hub's
`companion.wire.motion.GunMotion` (raised or lowered, still or moving) and its looks,
those of a moving gun emptied, through `companion.wire.aimrule.AimTracker` (hold 500 ms),
its lock LED back to the hand; the referee's window around "three" then counts the aim.
A case's scenes draw from their own seed stream: the same whatever the worker processes.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from companion.referee.timing import Timing, Track, aim_snapshot
from companion.sensors.looks import seats_of
from companion.tablesim import TableModel, make_table
from companion.tablesim.hand import LOWERED_EL, Hand
from companion.tablesim.optics import Optics
from companion.tablesim.parts import Parts
from companion.wire import aimrule
from companion.wire.motion import TICKS_MASK, GunMotion

SLOT_US = 2000
TIMING = Timing()  # the referee's defaults: hold 500 ms, too slow 1000 ms after "three"
HOLD_MS = int(TIMING.hold_ms)
TOO_SLOW_MS = TIMING.too_slow_ms
START_MS = -1500.0  # the simulation starts this long before "three" (at t = 0)
SIZES = (0.9, 1.2, 1.6)
TABLES = ([("round", size, str(n)) for n in (4, 6, 8) for size in SIZES]
          + [("rect", size, seating) for seating in ("2+2", "3+3", "2+2+1+1", "3+3+1+1", "4+4")
             for size in SIZES])
OFFSETS = (1.0, 2.0, 3.0, 4.0, 5.0)
OPTICS = {  # --optics: the table's optics (companion/tablesim/optics.py)
    "typical": Optics(),
    "worst": Optics(parts=Parts("worst")),  # weakest LEDs, least sensitive receivers, 4.75 V
    "cloth": Optics(cloth=0.8),  # a white cloth on the table
    "cards": Optics(cards=0.8),  # white cards lying in front of every player
}
INTENTS = (("hold", 0.30), ("swing", 0.20), ("late swing", 0.10), ("sweep", 0.15),
           ("between", 0.15), ("lower", 0.10))
MORE_INTENTS = (("lazy", 0.05), ("shaky", 0.05))  # with --grips
HELD = ("hold", "swing", "late swing")  # the intents a case's held aims count
# the share of a --grips scene's guns that play a held aim (about 0.55)
HELD_SHARE = (sum(w for k, w in INTENTS if k in HELD)
              / sum(w for _, w in INTENTS + MORE_INTENTS))
GRIP_TABLES = [("round", 1.2, "8"), ("round", 0.9, "4"), ("round", 1.6, "6"),
               ("rect", 1.6, "3+3"), ("rect", 1.6, "3+3+1+1"), ("rect", 1.2, "2+2+1+1")]
SHAKY_DEG = (0.3, 0.5)
LAZY_DEG = (6.0, 8.0)
SWEEP_DPS = (10.0, 200.0)  # log-uniform: as many sweeps under 45 °/s as above
PEOPLE = {"seated": "seated", "standing": "standing", "mixed": "half standing",
          "leaning": "leaning in", "turned": "turned torso"}  # the stances, in the tables


def count_aim(changes: list[tuple[str, object, float, float]], lowered_at: float | None,
              gun: int, seats: tuple[int, ...]) -> int | str | None:
    """The referee's aim at "three" (t = 0), by the referee's own rule
    (`companion.referee.timing.aim_snapshot`), from a gun's aim-rule changes (state, value,
    stamp, emitted) as the sensor bridge reports them: a seat, "ambiguous", or None."""
    aim, raised = Track(), Track(True)
    for state, value, start, _emitted in changes:
        if state == aimrule.AMBIGUOUS:
            value = seats_of(int(value))  # type: ignore[call-overload]
        aim.add(start, value if state != aimrule.NONE else None)
    if lowered_at is not None:
        raised.add(lowered_at, False)
    counted = aim_snapshot(aim, raised, 0.0, TIMING, set(seats) - {gun})
    return "ambiguous" if isinstance(counted, tuple) else counted


def _neighbours(model: TableModel, gun: int, rng: random.Random) -> tuple[int, int]:
    """Two targets next to each other as gun sees them, in either order."""
    order = sorted((s for s in model.seats if s != gun), key=lambda s: model.bearing(gun, s)[0])
    i = rng.randrange(len(order) - 1)
    a, b = order[i], order[i + 1]
    return (a, b) if rng.random() < 0.5 else (b, a)


def _reach(model: TableModel, gun: int, target: int, frm: tuple[float, float]) -> float:
    az, el = model.bearing(gun, target)
    return model.hand.reach_ms(math.hypot(az - frm[0], el - frm[1]))


def script(model: TableModel, gun: int, rng: random.Random, more: bool = False
           ) -> tuple[str, object]:
    """Give gun one intent; returns (intent, what a perfect referee would count)."""
    kinds, weights = zip(*(INTENTS + MORE_INTENTS if more else INTENTS), strict=True)
    kind = rng.choices(kinds, weights)[0]
    others = [s for s in model.seats if s != gun]
    target = rng.choice(others)
    lowered = (0.0, LOWERED_EL)
    if kind in ("hold", "lazy", "shaky"):
        arrive = rng.uniform(-1700, -200)
        model.intent(gun, "hold", target, at_ms=arrive - _reach(model, gun, target, lowered),
                     offset_deg=rng.uniform(*LAZY_DEG) if kind == "lazy" else None,
                     tremor_deg=SHAKY_DEG if kind == "shaky" else None)
        return kind, target
    if kind in ("swing", "late swing", "lower"):
        model.intent(gun, "hold", target, at_ms=-3500)
    if kind == "swing":
        new = rng.choice([s for s in others if s != target])
        arrive = rng.uniform(-400, 300)
        start = arrive - _reach(model, gun, new, model.bearing(gun, target))
        model.intent(gun, "swing", new, at_ms=start)
        return kind, new
    if kind == "late swing":
        new = rng.choice([s for s in others if s != target])
        model.intent(gun, "swing", new, at_ms=rng.uniform(300, 500))
        return kind, target
    if kind == "lower":
        model.intent(gun, "lower", at_ms=rng.uniform(-600, -250))
        return kind, None
    a, b = _neighbours(model, gun, rng)
    if kind == "sweep":
        speed = SWEEP_DPS[0] * (SWEEP_DPS[1] / SWEEP_DPS[0]) ** rng.random()
        (a_az, a_el), (b_az, b_el) = model.bearing(gun, a), model.bearing(gun, b)
        half = (math.hypot(b_az - a_az, b_el - a_el) / 2 + 12.0) / speed * 1000
        model.intent(gun, "sweep", a, b, at_ms=rng.uniform(-300, 500) - half, speed_dps=speed)
        return kind, None
    arrive = rng.uniform(-1700, -200)
    model.intent(gun, "between", a, b, at_ms=arrive - _reach(model, gun, a, lowered))
    return kind, None


def scene(model: TableModel, rng: random.Random, tally: Counter, more: bool = False) -> None:
    """One countdown at a table: every gun scripted, the slots played, the aims counted."""
    seats = model.seats
    plans = {g: script(model, g, rng, more) for g in seats}
    guns = {g: GunMotion() for g in seats}
    t = START_MS - 3000  # the guns lay on the table: the hub knows their gyros' bias
    while t < START_MS:
        for g in seats:
            guns[g].update(int(t) & TICKS_MASK, *model.imu(g, t))
        t += 20
    round_ms = (len(seats) + 1) * SLOT_US / 1000
    window = aimrule.window_rounds(HOLD_MS, (len(seats) + 1) * SLOT_US)
    trackers = {g: aimrule.AimTracker(window) for g in seats}
    history: dict[int, list[int]] = {g: [] for g in seats}
    changes: dict[int, list] = {g: [] for g in seats}
    lowered: dict[int, float | None] = dict.fromkeys(seats)
    up: set[int] = set()
    slot_ms = SLOT_US / 1000
    t = START_MS
    while t < TOO_SLOW_MS + 2 * round_ms:
        for g in seats:
            guns[g].update(int(t) & TICKS_MASK, *model.imu(g, t))
        looks = dict.fromkeys(seats, 0)
        for k, seat in enumerate([0, *seats]):
            mask = model.detect(t + k * slot_ms + slot_ms / 2, seat)
            if seat:
                for g in seats:
                    if mask >> (g - 1) & 1:
                        looks[g] |= 1 << (seat - 1)
        t += round_ms
        for g in seats:
            looks[g] = aimrule.still_look(looks[g], guns[g].still())
            change = trackers[g].look(t, looks[g])
            if change is not None:
                changes[g].append((*change, t))
            masks = history[g]
            masks.append(looks[g])
            del masks[:-aimrule.LOCK_LOOKS]
            model.feedback(g, aimrule.lock(masks))
            if guns[g].raised:
                up.add(g)
            elif g in up and lowered[g] is None:
                lowered[g] = t
    for g in seats:
        kind, expected = plans[g]
        counted = count_aim(changes[g], lowered[g], g, seats)
        if kind in ("hold", "swing", "late swing", "lazy", "shaky"):
            outcome = ("correct" if counted == expected else "ambiguous" if counted == "ambiguous"
                       else "none" if counted is None else "wrong")
            if kind in HELD:
                tally["held", outcome] += 1
            tally[kind, outcome] += 1
        else:
            tally[kind, "seat" if isinstance(counted, int) else str(counted).lower()] += 1


def run_case(case: tuple) -> dict:
    """All scenes of one (table, offset, feedback, optics[, grip, stance]) case, on its own
    seed stream; with a grip, the lazy and shaky holds are played too."""
    seed, trials, shape, size, seats, offset, feedback, optics, *how = case
    grip, stance = how or ("held out", "seated")
    name = f"{seed}/{shape}/{size}/{seats}/{offset}/{feedback}"
    rng = random.Random(name + (f"/{grip}/{stance}" if how else ""))
    table = make_table(shape, size, seats, grip, stance)
    tally: Counter = Counter()
    hand = Hand(offset_deg=offset)
    for _ in range(trials):
        scene(TableModel(table, rng, hand=hand, feedback=feedback, optics=OPTICS[optics]),
              rng, tally, bool(how))
    held = sum(v for (k, _), v in tally.items() if k == "held")
    sweeps = sum(v for (k, _), v in tally.items() if k == "sweep")
    lowers = sum(v for (k, _), v in tally.items() if k == "lower")
    return {
        "shape": shape, "size_m": size, "seating": seats, "seats": table.seats,
        "grip": grip, "stance": stance,
        "offset_deg": offset, "feedback": feedback, "held": held,
        **{o: tally["held", o] / held if held else 0.0
           for o in ("correct", "wrong", "ambiguous", "none")},
        "sweeps": sweeps, "sweeps_counted": tally["sweep", "seat"] / sweeps if sweeps else 0.0,
        "lowered_counted": tally["lower", "seat"] / lowers if lowers else 0.0,
        "tally": {f"{k}:{o}": v for (k, o), v in sorted(tally.items())},
    }


def rates_seen(hand: Hand, seed: int, speed_dps: float | None, scenes: int = 40,
               every_ms: float = 18.0) -> list[float]:
    """The rates a hub's `GunMotion` reports, read every `every_ms` (8 seats), of guns held
    3 s on a target (speed None) or swept at speed_dps, from 0.3 s after the hand arrives."""
    out = []
    for k in range(scenes):
        rng = random.Random(f"{seed}/still/{k}")
        model = TableModel(make_table("round", 1.2, "8"), rng, hand=hand)
        gun, t = GunMotion(), -3000.0
        while t < 0:  # the gun lies on the table: the hub learns its gyro's bias
            gun.update(int(t) & TICKS_MASK, *model.imu(1, t))
            t += every_ms
        if speed_dps is None:
            start = model.intent(1, "hold", 5, at_ms=t)
            stop = start + 3000
        else:
            start = t + 200
            stop = model.intent(1, "sweep", 4, 6, at_ms=start, speed_dps=speed_dps)
        while t < stop:
            gun.update(int(t) & TICKS_MASK, *model.imu(1, t))
            if t >= start + 300:
                out.append(gun.rate)
            t += every_ms
    return sorted(out)


def stillness(seed: int) -> str:
    """The rates held and swept guns show, against the threshold (docs/PERFORMANCE.md)."""
    rows = ["| gun | samples | least °/s | 0.1 % under | 99.9 % under | most °/s |",
            "|---|---:|---:|---:|---:|---:|"]
    cases = [("held, hands as issue 18", Hand(), None),
             ("held, shaky (tremor 0.3 to 0.5°)", Hand(tremor_deg=(0.3, 0.5)), None),
             ("held, twice the drift (1° RMS)", Hand(drift_deg=1.0), None)]
    cases += [(f"swept at {v} °/s", Hand(), float(v)) for v in (10, 15, 20, 30, 60)]
    for name, hand, speed in cases:
        r = rates_seen(hand, seed, speed)
        rows.append(f"| {name} | {len(r)} | {r[0]:.1f} | {r[len(r) // 1000]:.1f} "
                    f"| {r[len(r) * 999 // 1000]:.1f} | {r[-1]:.1f} |")
    return "\n".join(rows)


