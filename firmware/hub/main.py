"""Hub firmware (RP2040): the table's IR slots, the lock LEDs, the guns' IMUs, standees, USB.

The logic is the hub core's (companion/wire/hubcore.py), the hardware layer hubhw.py's;
this file wires them to the pins named in config.json.
"""

import board
from hubcore import Hub
from hubhw import Panel, Slots
from imu import Imus

DEFAULTS = {
    "seats": [1, 2, 3, 4, 5, 6, 7, 8],
    "slot_us": 2000,
    "hold_ms": 500,
    "debounce_ms": 30,
    "wdt_ms": 2000,
    "carrier_hz": 38000,
    "duty_u16": 21845,  # the carrier on for a third of each period
    "i2c_id": 0,  # the RP2040's I2C block on pins.i2c (GP20, GP21: I2C0)
    "i2c_hz": 100000,  # standard mode: 4.5 m of cable per seat (hardware/IMU.md)
    "imu_per_pass": 2,  # IMUs read per main-loop pass
    "post_up_level": 0,  # a reed input reads this while the standee stands on it
}
LED_PIN = 25  # the Pico's on-board LED: blinks an error code when the hub cannot start
BLINK_MS = 125  # a blinking lock LED: 4 Hz


def check(config):
    """Refuse pins this layer cannot drive: receivers and address must be contiguous."""
    pins = config["pins"]
    for key, n in (("receivers", 8), ("address", 3)):
        first = pins[key][0]
        if list(pins[key]) != list(range(first, first + n)):
            raise ValueError(f"config.json: pins.{key} must be {n} GPs in a row")
    for s in config["seats"]:
        if not 1 <= s <= 8:
            raise ValueError("config.json: seats are 1..8")


def main():
    try:
        config = board.load_config(DEFAULTS)
        check(config)
        slots = Slots(config)
        panel = Panel(config)
        imus = Imus(config, config["seats"])
        hub = Hub(config["id"], config["seats"], config["slot_us"], config["hold_ms"],
                  config["debounce_ms"], panel.read())
    except Exception as e:  # a broken config.json: say so and wait at the REPL
        board.fail(e, LED_PIN)
        return
    played = [None]

    def step(now_ms):
        if hub.order is not played[0]:  # at boot and after SLOTS
            played[0] = hub.order
            slots.play(hub.schedule(), hub.slot_us)
        slots.drain(hub)
        imus.poll(hub, now_ms, config["imu_per_pass"])
        hub.inputs(now_ms, panel.read())
        panel.show(hub.lock_mask(now_ms // BLINK_MS % 2 == 0))

    board.run(hub, step, config, slots.stop)


main()
