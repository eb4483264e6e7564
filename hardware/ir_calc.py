"""hardware/IR.md's optics, computed from the one optics model the simulated table uses
(companion/tablesim/optics.py and parts.py): the aperture in its pocket, the badge, the
parts and supply, the link margin over distance and angle, the acceptance it gives, the
bursts against the receiver's AGC and output timing, and crosstalk from reflections.

    python hardware/ir_calc.py     # print the tables

`python hardware/build.py` writes them into IR.md between `<!-- BEGIN ir_calc:NAME -->`
and `<!-- END ir_calc:NAME -->`; a test fails if IR.md differs from what this computes.
"""

import math
import re
from pathlib import Path

import geometry

from companion.tablesim import parts as P
from companion.tablesim.optics import Optics, aperture_transmission, carrier_factor

TYPICAL, WORST = Optics(), Optics(parts=P.Parts("worst"))
WORST_SPAN = 90 - 180 / 8  # the others' span at 8 seats: the badge's weakest direction
DISTANCES = (0.5, 1.0, 1.5, 2.0, 2.2)  # 2.2 m: a 1.6 x 0.9 m table's diagonal and chests
ANGLES = (0, 3, 5, 7)
POOL = (0.4, 0.5, 0.6)  # where a badge lights the table most, in front of it
CARD_FROM_GUN = 0.5
WHITE = 0.8  # diffuse reflectance of white cotton or card at 940 nm
READ_US = (698, 848, 998)  # firmware/hub/hubhw.py's reads, from the slot's start
LATE_US = 300  # the latest start of the carrier after the slot's start the reads allow


def scad(name):
    """A number of hardware/cad/common.scad (the printed aperture's dimensions)."""
    text = (Path(__file__).resolve().parent / "cad" / "common.scad").read_text()
    return float(re.search(rf"^{name}\s*=\s*([\d.]+)\s*;", text, re.M)[1])


def badge_min(optics, half_span):
    """The badge's weakest level direction within +-half_span, in single LEDs on axis."""
    return min(optics.badge_relative(d / 10) for d in range(int(half_span * 10) + 1))


def irradiance(optics, distance):
    """mW/m2 at a gun `distance` away from a badge's weakest direction at 8 seats."""
    return optics.led_mw_sr * badge_min(optics, WORST_SPAN) / distance ** 2


def margin(optics, distance, angle):
    return optics.margin_db(irradiance(optics, distance), angle)


def db(ratio):
    return 10 * math.log10(ratio)


def pool_radiance(distance, reflectance=WHITE):
    """Radiance of white cloth `distance` in front of a badge (typical parts), lit by it."""
    h = geometry.TABLE_TO_CHEST
    r = math.hypot(distance, h)
    intensity = TYPICAL.intensity((1.0, 0.0), (distance / r, 0.0, -h / r))
    return TYPICAL.diffuse_radiance(intensity, distance, h, reflectance)


def crosstalk_rows():
    """(scene, distance, mW/m2 at the receiver) for white cloth and a card."""
    h = geometry.TABLE_TO_CHEST
    seen = math.hypot(CARD_FROM_GUN, h)
    card = min(0.063 * 0.088 * (h / seen) / seen ** 2, TYPICAL.view_sr())
    scenes = (("white cloth filling the lower half of the view (aimed at a chest)",
               TYPICAL.view_sr(lower_half=True)),
              ("white cloth filling the whole view (aimed down at the table)",
               TYPICAL.view_sr()),
              (f"a white card {CARD_FROM_GUN} m from the gun, centred in its view", card))
    return [(name, d, pool_radiance(d) * solid) for name, solid in scenes for d in POOL]


def mirror_depression(distance):
    """Angle below level at which a gun sees a badge's mirror image in a glossy table top."""
    return math.degrees(math.atan(2 * geometry.TABLE_TO_CHEST / distance))


def _cost_rows():
    """What each worst-case part costs against typical parts, dB."""
    t, w = P.Parts(), P.Parts("worst")
    return [("low supply and drops (current)", db(w.led_ma / t.led_ma)),
            ("weakest LED (intensity at 100 mA)",
             db(P.LED_IE_100MA["worst"] / P.LED_IE_100MA["typical"])),
            ("least sensitive receiver", db(P.RX_EE_MIN["typical"] / P.RX_EE_MIN["worst"]))]


def tables():
    """Every generated block of IR.md, by name."""
    table = geometry._table  # the one Markdown table writer of hardware/
    out = {}
    angles = (0, 2, 3, 5, 7, 8, 9, 10)
    out["aperture"] = table(
        ["off axis", *[f"{a}°" for a in angles]],
        [["two stops alone", *[f"{aperture_transmission(a, scad('bore'), scad('stops')):.2f}"
                               for a in angles]],
         ["× the receiver's directivity", *[f"{TYPICAL.lit(a):.2f}" for a in angles]]])
    out["badge"] = table(
        ["seats", "others span ±", "weakest direction (× one LED on axis)"],
        [[n, f"{90 - 180 / n:.1f}°", f"{badge_min(TYPICAL, 90 - 180 / n):.2f}"]
         for n in range(4, 9)])
    rows = []
    for name, o in (("typical", TYPICAL), ("worst", WORST)):
        c = o.parts.corner
        rows.append([name, f"{P.SUPPLY_V[c]:.2f} V", f"{P.CABLE_V[c]:.1f} V",
                     f"{P.LED_VF[c]:.2f} V", f"{P.DRIVER_VCE[c]:.1f} V",
                     f"{P.LED_RESISTOR_OHM * (1 + P.RESISTOR_TOLERANCE[c]):.1f} Ω",
                     f"{o.parts.led_ma:.1f} mA", f"{o.led_mw_sr:.1f} mW/sr",
                     f"{o.parts.rx_ee_min:.2f} mW/m²", f"{o.threshold_mw_m2:.2f} mW/m²"])
    out["parts"] = table(
        ["parts", "supply", "cable and fuse", "LED V_F", "ULN2803A V_CE", "resistor",
         "LED current", "one LED on axis", "receiver E_e min", "threshold for our bursts"],
        rows)
    out["costs"] = table(["worst case", "costs"],
                         [[n, f"{v:+.1f} dB"] for n, v in _cost_rows()])
    out["link"] = table(
        ["distance m", *[f"margin {a}° off axis, typical / worst" for a in ANGLES],
         "acceptance, typical / worst"],
        [[f"{d:.1f}", *[f"{margin(TYPICAL, d, a):+.1f} / {margin(WORST, d, a):+.1f} dB"
                        for a in ANGLES],
          f"±{TYPICAL.acceptance_at(irradiance(TYPICAL, d)):.1f}° / "
          f"±{WORST.acceptance_at(irradiance(WORST, d)):.1f}°"] for d in DISTANCES])
    cycle = 1e6 / P.CARRIER_HZ
    slot = TYPICAL.slot_us
    out["bursts"] = table(
        ["", "our bursts", "the receiver (TSOP382.., AGC2)"],
        [["burst", f"{P.BURST_US / cycle:.0f} cycles ({P.BURST_US} µs)",
          f"{P.RX_MIN_BURST_CYCLES} to {P.RX_SHORT_BURST_CYCLES} cycles"],
         ["gap after it", f"{(slot - P.BURST_US) / cycle:.0f} cycles",
          f"{P.RX_MIN_GAP_CYCLES} cycles or more"],
         ["bursts a second, a gun seeing all 8 badges", f"{8e6 / (9 * slot):.0f}",
          f"{P.RX_MAX_SHORT_BURSTS_PER_S} at most"],
         ["carrier duty", f"{P.CARRIER_DUTY:.2f}: {db(carrier_factor(P.CARRIER_DUTY)):+.1f} dB",
          "datasheet: a half-on square wave"],
         ["output low from the burst's start", f"reads at {', '.join(map(str, READ_US))} µs",
          f"{P.RX_DELAY_CYCLES[0] * cycle:.0f} to {P.RX_DELAY_CYCLES[1] * cycle:.0f} µs"],
         ["output low until", f"carrier stopped after the last read ({READ_US[-1]} µs)",
          f"at least {P.RX_DELAY_CYCLES[0] + P.RX_WIDTH_CYCLES[0]} cycles "
          f"({(P.RX_DELAY_CYCLES[0] + P.RX_WIDTH_CYCLES[0]) * cycle:.0f} µs) after the burst"],
         ["a late carrier start the reads allow",
          f"{READ_US[0] - P.RX_DELAY_CYCLES[1] * cycle:.0f} µs", "LATE counted past 250 µs"]])
    out["crosstalk"] = table(
        ["what the gun sees", "lit from", "at the receiver", "vs a typical receiver",
         "vs the most sensitive"],
        [[name, f"{d:.1f} m", f"{e:.3f} mW/m²", f"{db(e / TYPICAL.threshold_mw_m2):+.1f} dB",
          f"{db(e / TYPICAL.sensitive_threshold_mw_m2):+.1f} dB"]
         for name, d, e in crosstalk_rows()])
    out["reflection"] = table(
        ["badge distance m", "mirror image below level", "clear of the ±10° cut-off by"],
        [[f"{d:.1f}", f"{mirror_depression(d):.1f}°",
          f"{mirror_depression(d) - TYPICAL.acceptance_deg:.1f}°"]
         for d in (0.6, 1.0, 1.5, 2.0, 2.2)])
    return out


if __name__ == "__main__":
    geometry.main(tables())
