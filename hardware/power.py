"""A seat's power budget with the pod's protection in it: where the volts go between the
Pi's USB and a badge LED or the gun, typical and worst case, from datasheet figures.

The pod protects itself (`schematics.pod`): Q1, a P-channel MOSFET, passes +5 V only the
right way round; F1, a PTC fuse, limits what the gun's coiled cord can draw; R2 keeps the
hub's reed input safe if the pod's ground is swapped, and limits what a mirrored cable's
+5 V (on pod pin 8, REED) can push; R3 limits what a crossover cable's +5 V (T568A at one
end: on pod pin 3, RX) pushes into the receiver's output, and costs the receiver's low
level at the hub a few tenths of a volt. The wires' pin numbers come from pinmap.yaml.
"""

from pathlib import Path

import yaml

CAT5E = yaml.safe_load((Path(__file__).resolve().parent / "pinmap.yaml").read_text())["cat5e"]

# datasheet figures: (typical, worst)
SUPPLY_V = (5.0, 4.75)  # USB 2.0 at the port, 5 V -5 %
WIRE_OHM = (0.168, 0.168)  # 2 m of 24 AWG at 84.2 mohm/m (Cat5e patch: 24 to 26 AWG)
HUB_PTC_OHM = (0.41, 1.17)  # Bourns MF-R050: Rmin, R1max (an hour after a trip)
POD_FET_OHM = (0.05, 0.05)  # AOS AO3401A: RDS(on) <= 50 mohm at VGS = -4.5 V
POD_PTC_OHM = (2.5, 7.5)  # Bourns MF-R010: Rmin, R1max; in the gun's branch only
LED_VF = (1.35, 1.6)  # Vishay TSAL6400 at 100 mA: typical, maximum
ULN_VCE = (0.9, 1.1)  # ULN2803A VCE(sat) at 100 mA per channel: typical, maximum
LED_OHM = 56
LEDS = 3
GUN_MA = (3.0, 5.0)  # TSOP382 0.35 to 0.45 mA + a 6-axis IMU breakout with its regulator
RX_SUPPLY_V = (5.0, 5.25)  # the RX figures' worst is the most current: USB 2.0's 5 V +5 %
RX_PULLUP_OHM = 10_000  # the hub's RN3, RX to +5 V
POD_RX_OHM = 1000  # the pod's R3, in series with the receiver's output
RX_VOL = 0.1  # TSOP38238 output low at 0.5 mA sunk, maximum
RX_VIL = 0.8  # 74LVC245A input low at VCC 3.3 V, maximum: what the hub reads as low
RX_CLAMP_V = 0.6  # the receiver output's clamp diode to its unpowered VS
RX_MAX_MA = 5.0  # TSOP38238 output current, absolute maximum


def badge_led_ma(case, diode_v=0.0):
    """One badge LED's current while lit: the three share the +5 V wire, the hub's fuse and
    the pod's FET, and the BADGE_K wire back to the ULN2803A. `diode_v`: a series diode's
    drop in the FET's place, for comparison."""
    shared = 2 * WIRE_OHM[case] + HUB_PTC_OHM[case] + (0 if diode_v else POD_FET_OHM[case])
    headroom = SUPPLY_V[case] - LED_VF[case] - ULN_VCE[case] - diode_v
    return 1000 * headroom / (LED_OHM + LEDS * shared)


def wire(signal):
    """The budget's name for the Cat5e wire carrying `signal`, with its pin."""
    (pin,) = [p for p, w in CAT5E.items() if w["signal"] == signal]
    return f"Cat5e {signal} wire (pin {pin}), 2 m"


def drops(case):
    """(element, volts) from the supply to one badge LED, the loop summing to the supply."""
    led_a = badge_led_ma(case) / 1000
    total_a = LEDS * led_a
    return [("hub fuse F<n>, MF-R050", total_a * HUB_PTC_OHM[case]),
            (wire("+5V"), total_a * WIRE_OHM[case]),
            ("pod Q1, AO3401A (reverse polarity)", total_a * POD_FET_OHM[case]),
            ("badge resistor, 56 Ω", led_a * LED_OHM),
            ("TSAL6400", LED_VF[case]),
            (wire("BADGE_K"), total_a * WIRE_OHM[case]),
            ("ULN2803A", ULN_VCE[case])]


def gun_supply_v(case):
    """The gun's +5 V at the pod's 6P6C while its own badge is lit (the worst moment):
    the badge's current through the shared wire, fuse and FET, then the gun's own
    through the pod's F1 and the GND wire."""
    badge_a = LEDS * badge_led_ma(case) / 1000
    gun_a = GUN_MA[case] / 1000
    shared = (badge_a + gun_a) * (WIRE_OHM[case] + HUB_PTC_OHM[case] + POD_FET_OHM[case])
    return SUPPLY_V[case] - shared - gun_a * (POD_PTC_OHM[case] + WIRE_OHM[case])


def rx_low_v(case):
    """The receiver's low level as the hub reads it: the hub's pull-up sunk by the receiver
    through the pod's R3 (the low it must read under RX_VIL)."""
    amps = (RX_SUPPLY_V[case] - RX_VOL) / (RX_PULLUP_OHM + POD_RX_OHM + WIRE_OHM[case])
    return RX_VOL + amps * POD_RX_OHM


def crossover_rx_ma(case):
    """A crossover cable (pins 1 and 3 swapped at one end) puts the hub's +5 V on RX: R3
    limits what flows into the receiver's output and through its clamp to the unpowered
    gun's supply (under RX_MAX_MA)."""
    return 1000 * (RX_SUPPLY_V[case] - RX_CLAMP_V) / (POD_RX_OHM + HUB_PTC_OHM[case]
                                                      + WIRE_OHM[case])


def markdown():
    rows = ["| from the Pi's USB to one badge LED, while lit | typical | worst |",
            "|---|---:|---:|", f"| supply | {SUPPLY_V[0]:.2f} V | {SUPPLY_V[1]:.2f} V |"]
    for (name, typ), (_, worst) in zip(drops(0), drops(1), strict=True):
        rows.append(f"| {name} | {typ:.3f} V | {worst:.3f} V |")
    rows.append(f"| **LED current** (3 per badge) | **{badge_led_ma(0):.1f} mA** | "
                f"**{badge_led_ma(1):.1f} mA** |")
    rows.append(f"| gun's +5 V at the pod while its badge is lit (F1 MF-R010, "
                f"{GUN_MA[0]:.0f} to {GUN_MA[1]:.0f} mA) | {gun_supply_v(0):.2f} V | "
                f"{gun_supply_v(1):.2f} V |")
    rows.append(f"| RX low at the hub through the pod's R3, 1 kΩ (reads low under "
                f"{RX_VIL} V; supply {RX_SUPPLY_V[0]:.2f} / {RX_SUPPLY_V[1]:.2f} V) "
                f"| {rx_low_v(0):.2f} V | {rx_low_v(1):.2f} V |")
    rows.append(f"| crossover cable: +5 V into the receiver's output through R3 "
                f"(absolute maximum {RX_MAX_MA:g} mA) | {crossover_rx_ma(0):.1f} mA "
                f"| {crossover_rx_ma(1):.1f} mA |")
    return "\n".join(rows)
