"""A seat's power budget with the pod's protection in it: where the volts go between the
Pi's USB and a badge LED or the gun, typical and worst case, from datasheet figures.

The pod protects itself (`schematics.pod`): Q1, a P-channel MOSFET, passes +5 V only the
right way round; F1, a PTC fuse, limits what the gun's coiled cord can draw; R2 keeps the
hub's reed input safe if the pod's ground is swapped, and limits what a mirrored cable's
+5 V (on pod pin 8, REED) can push. The wires' pin numbers come from pinmap.yaml.
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
    return "\n".join(rows)
