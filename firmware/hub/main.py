"""Standee hub firmware: 8 IR beacons in turn, 8 standee switches, USB serial.

The logic is in hub.py, the beacon timing in beacons.py; this file wires them to the
pins named in config.json.
"""

import time

import board
import machine
from beacons import Beacons
from hub import Hub

DEFAULTS = {
    "seats": [1, 2, 3, 4, 5, 6, 7, 8],
    "slot_us": 14000,
    "debounce_ms": 30,
    "wdt_ms": 2000,
    "carrier_hz": 38000,
    "duty_u16": 21845,  # LED on for a third of each carrier period
}


def main():
    config = board.load_config(DEFAULTS)
    seats = config["seats"]
    pins = config["pins"]
    pwms = {}
    switches = {}
    for i, seat in enumerate(seats):
        beacon = machine.Pin(pins["beacons"][i])
        pwms[seat] = machine.PWM(beacon, freq=config["carrier_hz"], duty_u16=0)
        switches[seat] = machine.Pin(pins["switches"][i], machine.Pin.IN, machine.Pin.PULL_UP)

    def up(seat):
        return 1 if switches[seat].value() == 0 else 0  # closed to ground while standing

    hub = Hub(config["id"], seats, config["slot_us"], config["debounce_ms"], [up(s) for s in seats])
    beacons = Beacons(hub, pwms, config["duty_u16"])

    def step(now_ms):
        beacons.next_slot()
        now_ms = time.ticks_ms()  # the frame took most of a slot
        for seat in seats:
            hub.switch(now_ms, seat, up(seat))

    board.run(hub, step, config)


main()
