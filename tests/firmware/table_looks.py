"""Looks of guns at a table, turned into the per-slot receiver masks a hub gets.

A gun sees a badge when its pointing direction is within the acceptance (±10°) of
the badge's bearing; `slot_masks` transposes the guns' looks into what each slot's
receivers report, which is what the hub's hardware layer hands to `Hub.slot`.
"""

ACCEPTANCE_DEG = 10
ROUND_MS = 18  # 8 seats: 9 slots of 2 ms


def bit(seat):
    return 1 << (seat - 1)


def look(direction_deg, bearings):
    """The badges a gun pointing at `direction_deg` sees: {seat: bearing_deg}."""
    mask = 0
    for seat, bearing in bearings.items():
        if abs(direction_deg - bearing) <= ACCEPTANCE_DEG:
            mask |= bit(seat)
    return mask


def slot_masks(schedule, looks, noise=0):
    """Receiver masks per slot of `schedule` (0 first) for guns' `looks` {gun: mask}."""
    out = []
    for seat in schedule:
        if seat == 0:
            out.append(noise)
            continue
        rx = 0
        for gun, mask in looks.items():
            if mask & bit(seat):
                rx |= bit(gun)
        out.append(rx)
    return out


def rounds(schedule, looks_per_round, t0=0, noise=0):
    """Hub `round` events, one per entry of `looks_per_round`, ROUND_MS apart."""
    return [
        ["round", t0 + ROUND_MS * (k + 1), slot_masks(schedule, looks, noise)]
        for k, looks in enumerate(looks_per_round)
    ]
