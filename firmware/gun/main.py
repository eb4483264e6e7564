"""Gun board firmware: IR receiver on a pin interrupt, tilt switch, USB serial.

The logic is in gun.py; this file wires it to the pins named in config.json.
"""

import board
import machine
from edgelog import EdgeLog
from gun import Gun

DEFAULTS = {
    "seat": 0,
    "hold_ms": 250,  # AIM - after this long without a frame: two rounds of 8 slots
    "debounce_ms": 30,
    "wdt_ms": 2000,
    "tilt_raised_level": 0,  # the tilt switch closes to ground when the gun is raised
}


def main():
    config = board.load_config(DEFAULTS)
    pins = config["pins"]
    ir = machine.Pin(pins["ir"], machine.Pin.IN, machine.Pin.PULL_UP)
    tilt = machine.Pin(pins["tilt"], machine.Pin.IN, machine.Pin.PULL_UP)
    led = machine.Pin(pins["led"], machine.Pin.OUT) if pins.get("led") is not None else None
    raised_level = config["tilt_raised_level"]
    gun = Gun(
        config["id"],
        config["seat"],
        config["hold_ms"],
        config["debounce_ms"],
        1 if tilt.value() == raised_level else 0,
    )
    log = EdgeLog()
    ir.irq(log.irq, machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING, hard=True)

    def step(now_ms):
        log.drain(gun, now_ms)
        gun.tilt(now_ms, 1 if tilt.value() == raised_level else 0)
        if led is not None:
            led.value(gun.aim is not None)

    board.run(gun, step, config)


main()
