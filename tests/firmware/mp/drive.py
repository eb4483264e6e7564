"""Driving a hub core with scripted events: the same code under MicroPython (oracle.py)
and CPython (test_hubcore.py), to show both runtimes make the same lines of it."""


def drive_hub(hub_class, args, events):
    """Drive hub_class(*args) with events; its lines (text), aims, locks and counters.

    Events: ["hello", t], ["tick", t], ["rx", t, line], ["slot", t, seat, rx_mask],
    ["round", t, [rx_mask per slot of the schedule]], ["inputs", t, posts],
    ["imu", t, seat, [gx, gy, gz, ax, ay, az] or None],
    ["late", n], ["rounds", n], ["locks", t, blink_on] (records the lock LEDs lit then).
    Every change of a gun's aim is kept in `history` as [seat, state, value, since].
    """
    board = hub_class(*args)
    lit = []
    history = []
    last = {}
    for ev in events:
        kind, now = ev[0], ev[1]
        if kind == "hello":
            board.hello(now)
        elif kind == "tick":
            board.tick(now)
        elif kind == "rx":
            board.receive(ev[2].encode(), now)
        elif kind == "slot":
            board.slot(now, ev[2], ev[3])
        elif kind == "round":
            for seat, mask in zip(board.schedule(), ev[2]):  # noqa: B905 - MicroPython: no strict
                board.slot(now, seat, mask)
        elif kind == "inputs":
            board.inputs(now, ev[2])
        elif kind == "imu":
            board.imu(now, ev[2], ev[3])
        elif kind == "late":
            board.late = now
        elif kind == "rounds":
            board.rounds = now
        elif kind == "locks":
            lit.append(board.lock_mask(ev[2]))
        for seat, tracker in board.trackers.items():
            aim_now = [tracker.state, tracker.value, tracker.since]
            if last.get(seat, ["none", 0, None]) != aim_now:
                history.append([seat] + aim_now)  # noqa: RUF005 - nor [seat, *a]
            last[seat] = aim_now
    aims = {}
    for seat, tracker in board.trackers.items():
        aims[seat] = [tracker.state, tracker.value, tracker.since]
    return {
        "lines": [line.decode() for line in board.out],
        "aims": aims,
        "locks": board.locks,
        "lit": lit,
        "history": history,
        "schedule": board.schedule(),
        "rounds": board.rounds,
        "noise": board.noise,
    }
