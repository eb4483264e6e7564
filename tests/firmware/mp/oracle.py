"""Runs the board code under MicroPython on requests from the CPython tests.

Reads one JSON list of requests on stdin, answers one JSON list on stdout, so a
test can generate cases in CPython and check what the real runtime makes of them.
"""

import json
import sys

import aimrule
from debounce import Debouncer
from drive import drive_hub
from hubcore import Hub


def debounce(stable_ms, initial, readings):
    d = Debouncer(stable_ms, initial)
    changes = []
    for t, raw in readings:
        v = d.update(t, raw)
        if v is not None:
            changes.append([t, v])
    return changes


def aim(window, looks):
    """The changes of a tracker fed `looks` ([t, mask]) as [index, state, value, t]."""
    tracker = aimrule.AimTracker(window)
    out = []
    for i, (t, mask) in enumerate(looks):
        change = tracker.look(t, mask)
        if change is not None:
            out.append([i, change[0], change[1], change[2]])
    return out


def hub(args, events):
    return drive_hub(Hub, args, events)


HANDLERS = {
    "debounce": debounce,
    "aim": aim,
    "lock": aimrule.lock,
    "window_rounds": aimrule.window_rounds,
    "hub": hub,
}


def main():
    answers = []
    for req in json.loads(sys.stdin.read()):
        try:
            answers.append({"ok": HANDLERS[req[0]](*req[1:])})
        except Exception as e:
            answers.append({"error": f"{type(e).__name__}: {e}"})
    print(json.dumps(answers))


main()
