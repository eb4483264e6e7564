"""Draw the wiring of the hub, a gun and the Pi as SVG, from hardware/pinmap.yaml.

    python hardware/draw_wiring.py        # rewrites hardware/wiring-*.svg

The drawings are made from the pin map so they cannot disagree with it; a test checks
that the committed drawings are what this script makes now.
"""

import sys
from pathlib import Path
from xml.sax.saxutils import escape

import yaml

HERE = Path(__file__).resolve().parent
FONT = "font-family='Helvetica, Arial, sans-serif'"
INK, WIRE, IR, GND = "#222", "#1f5fa8", "#b03030", "#555"


class Sheet:
    """An SVG drawing built from a few schematic symbols."""

    def __init__(self, width, height, title):
        self.width, self.height = width, height
        self.parts = []
        self.text(20, 30, title, size=20, weight="bold")

    def text(self, x, y, s, size=13, anchor="start", weight="normal", color=INK):
        self.parts.append(
            f"<text x='{x}' y='{y}' {FONT} font-size='{size}' text-anchor='{anchor}' "
            f"font-weight='{weight}' fill='{color}'>{escape(str(s))}</text>"
        )

    def line(self, points, color=WIRE, width=2, dash=None):
        pts = " ".join(f"{x},{y}" for x, y in points)
        extra = f" stroke-dasharray='{dash}'" if dash else ""
        self.parts.append(
            f"<polyline points='{pts}' fill='none' stroke='{color}' stroke-width='{width}'{extra}/>"
        )

    def box(self, x, y, w, h, label, fill="#eef3f8"):
        self.parts.append(
            f"<rect x='{x}' y='{y}' width='{w}' height='{h}' rx='6' fill='{fill}' "
            f"stroke='{INK}' stroke-width='1.5'/>"
        )
        self.text(x + w / 2, y + 20, label, size=14, anchor="middle", weight="bold")

    def pin(self, x, y, label, side="right"):
        """A labelled pin stub on a board's edge; returns the wire end."""
        dx = 18 if side == "right" else -18
        self.line([(x, y), (x + dx, y)], color=INK)
        anchor = "end" if side == "right" else "start"
        self.text(x - 6 if side == "right" else x + 6, y + 4, label, size=12, anchor=anchor)
        return x + dx, y

    def circle(self, x, y, r, color=INK, width=1.5):
        self.parts.append(
            f"<circle cx='{x}' cy='{y}' r='{r}' fill='white' stroke='{color}' "
            f"stroke-width='{width}'/>"
        )

    def resistor(self, x, y, label, vertical=False):
        w, h = (12, 36) if vertical else (36, 12)
        self.parts.append(
            f"<rect x='{x - w / 2}' y='{y - h / 2}' width='{w}' height='{h}' fill='white' "
            f"stroke='{INK}' stroke-width='1.5'/>"
        )
        self.text(x + (12 if vertical else 0), y + (4 if vertical else -12), label, size=11,
                  anchor="start" if vertical else "middle")

    def led(self, x, y, label):
        """An IR LED pointing down (anode on top) at (x, y)."""
        self.parts.append(
            f"<polygon points='{x - 10},{y - 8} {x + 10},{y - 8} {x},{y + 8}' fill='white' "
            f"stroke='{INK}' stroke-width='1.5'/>"
        )
        self.line([(x - 10, y + 8), (x + 10, y + 8)], color=INK)
        self.line([(x + 14, y - 2), (x + 26, y + 6)], color=IR)
        self.line([(x + 14, y + 6), (x + 26, y + 14)], color=IR)
        self.text(x + 30, y + 4, label, size=11)

    def switch(self, x, y, label):
        """A switch between (x, y) and (x + 40, y)."""
        self.parts.append(f"<circle cx='{x + 4}' cy='{y}' r='3' fill='{INK}'/>")
        self.parts.append(f"<circle cx='{x + 36}' cy='{y}' r='3' fill='{INK}'/>")
        self.line([(x + 4, y), (x + 34, y - 12)], color=INK)
        self.text(x + 20, y + 18, label, size=11, anchor="middle")

    def ground(self, x, y):
        for i, half in enumerate((10, 6, 2)):
            self.line([(x - half, y + i * 4), (x + half, y + i * 4)], color=GND)

    def svg(self):
        body = "\n  ".join(self.parts)
        return (
            f"<svg xmlns='http://www.w3.org/2000/svg' width='{self.width}' "
            f"height='{self.height}' viewBox='0 0 {self.width} {self.height}'>\n"
            f"  <rect width='100%' height='100%' fill='white'/>\n  {body}\n</svg>\n"
        )


def table(sheet, x, y, headers, rows, widths):
    """A small table of text; returns the y below it."""
    cx = x
    for head, w in zip(headers, widths, strict=True):
        sheet.text(cx, y, head, size=12, weight="bold")
        cx += w
    for row in rows:
        y += 18
        cx = x
        for cell, w in zip(row, widths, strict=True):
            sheet.text(cx, y, cell, size=12)
            cx += w
    return y + 10


def draw_hub(pins):
    beacons, switches = pins["beacons"], pins["switches"]
    s = Sheet(980, 640, "Hub wiring: 8 beacons, 8 standee switches")
    s.box(40, 50, 170, 320, "Pico (hub)")
    b1, w1 = beacons[1], switches[1]
    vbus = s.pin(210, 100, f"VBUS (pin {pins['power']['vbus']})")
    beacon_pin = s.pin(210, 150, f"GP{b1['gp']} (pin {b1['pin']})")
    switch_pin = s.pin(210, 210, f"GP{w1['gp']} (pin {w1['pin']})")
    gnd = s.pin(210, 330, "GND (pin 38)")
    s.text(60, 400, "one channel drawn (seat 1);", size=12)
    s.text(60, 416, "the 8 are alike: see the table", size=12)
    # driver: GP -> 1 kΩ -> NPN base; collector to the LED cathode through the cable
    s.line([beacon_pin, (270, 150)])
    s.resistor(290, 150, "1 kΩ")
    s.line([(308, 150), (360, 150)])
    s.circle(380, 150, 20)
    s.text(380, 154, "NPN", size=11, anchor="middle")
    s.text(330, 195, "BC337 / 2N2222", size=11, anchor="middle")
    s.line([(390, 132), (390, 90), (560, 90)])  # collector -> jack pin 2
    s.line([(390, 168), (390, 180)], color=GND)  # emitter
    s.ground(390, 182)
    s.line([vbus, (250, 100), (250, 60), (560, 60)], color=IR)  # VBUS -> 68 Ω -> jack pin 1
    s.resistor(470, 60, "68 Ω")
    s.line([switch_pin, (560, 210)])
    s.line([gnd, (540, 330), (540, 240), (560, 240)], color=GND)
    # the cable and its jack
    s.box(560, 20, 110, 240, "RJ11 6P4C")
    for i, (y, name) in enumerate(((60, "1 LED+"), (90, "2 LED-"), (210, "3 switch"),
                                   (240, "4 GND"))):
        s.text(575, y - 4 if i < 2 else y + 14, name, size=11)
        s.line([(560, y), (670, y)], color=INK, dash="4 3")
    s.text(615, 280, "4-core cable, up to 2 m", size=11, anchor="middle")
    # the standee
    s.box(720, 20, 230, 260, "Standee base")
    s.line([(670, 60), (800, 60), (800, 72)], color=IR)
    s.led(800, 80, "TSAL6400, 940 nm")
    s.line([(800, 88), (800, 90), (670, 90)])
    s.switch(760, 210, "closed while standing")
    s.line([(670, 210), (764, 210)])
    s.line([(796, 210), (880, 210), (880, 240), (670, 240)], color=GND)
    s.text(740, 268, "switch opens when laid down", size=11)
    rows = [
        [str(seat), f"GP{beacons[seat]['gp']}", str(beacons[seat]["pin"]),
         f"GP{switches[seat]['gp']}", str(switches[seat]["pin"])]
        for seat in sorted(beacons)
    ]
    table(s, 60, 460, ["seat", "beacon", "pin", "switch", "pin"], rows, [60, 80, 60, 80, 60])
    s.text(520, 470, "Beacon current: (5 V - 1.3 V - 0.2 V) / 68 Ω ≈ 51 mA peak,", size=12)
    s.text(520, 488, "one beacon at a time, carrier on a third of the time.", size=12)
    s.text(520, 512, "Each beacon pin is its own PWM channel (38 kHz).", size=12)
    s.text(520, 536, "Switches: internal pull-ups; standing reads 0.", size=12)
    return s


def draw_gun(pins):
    s = Sheet(900, 460, "Gun: Raspberry Pi Pico with an IR receiver in a tube and a tilt switch")
    s.box(40, 70, 190, 250, "Pico (gun)")
    ir, tilt = pins["ir"], pins["tilt"]
    vs = s.pin(230, 120, f"3V3 OUT (pin {pins['power']['3v3_out']})")
    out = s.pin(230, 170, f"GP{ir['gp']} (pin {ir['pin']})")
    tl = s.pin(230, 240, f"GP{tilt['gp']} (pin {tilt['pin']})")
    gnd = s.pin(230, 290, f"GND (pin {pins['power']['ground'][0]})")
    s.text(60, 345, f"on-board LED (GP{pins['led']['gp']}): lit while", size=12)
    s.text(60, 361, "a beacon is decoded", size=12)
    s.line([vs, (330, 120)], color=IR)
    s.resistor(350, 120, "100 Ω")
    s.line([(368, 120), (520, 120)], color=IR)
    s.line([(430, 120), (430, 140)], color=IR)  # 4.7 µF to ground
    s.line([(418, 140), (442, 140)], color=INK)
    s.line([(418, 146), (442, 146)], color=INK)
    s.text(448, 148, "4.7 µF", size=11)
    s.line([(430, 146), (430, 152)], color=GND)
    s.ground(430, 154)
    s.line([out, (520, 170)])
    s.line([gnd, (520, 290), (520, 220)], color=GND)
    s.box(520, 90, 130, 150, "TSOP38238")
    for y, name in ((120, "VS"), (170, "OUT"), (220, "GND")):
        s.text(530, y + 4, name, size=12)
    # the tube in front of the receiver window
    s.parts.append("<rect x='650' y='135' width='160' height='30' fill='#333'/>")
    s.text(730, 128, "black tube 6 mm ID × 40 mm", size=11, anchor="middle")
    s.text(730, 185, "beam ±4.3° (75 mm at 1 m)", size=11, anchor="middle")
    s.line([(810, 150), (880, 150)], color=IR, dash="6 4")
    s.text(870, 140, "aim", size=11, anchor="end", color=IR)
    s.switch(330, 240, "tilt switch")
    s.line([tl, (334, 240)])
    s.line([(366, 240), (400, 240), (400, 290)], color=GND)
    s.text(560, 330, "USB to the Pi: power and the line protocol", size=12)
    s.text(560, 350, "Mount the tilt switch so it closes when the barrel", size=12)
    s.text(560, 366, "is level or raised, and opens when pointed down.", size=12)
    return s


def draw_pi(pins):
    s = Sheet(900, 700, "Raspberry Pi: standee switches and gun tilts wired straight to GPIO")
    standees, tilts = pins["standees"], pins["tilts"]
    by_header = {}
    for seat, p in standees.items():
        by_header[p["header"]] = (f"GPIO{p['bcm']}", f"standee {seat}")
    for seat, p in tilts.items():
        by_header[p["header"]] = (f"GPIO{p['bcm']}", f"tilt {seat}")
    for h in pins["ground"]:
        by_header[h] = ("GND", "")
    x0, y0, pitch = 380, 90, 28
    s.box(x0 - 40, y0 - 40, 160, 20 * pitch + 50, "40-pin header")
    for n in range(1, 41):
        row, right = (n - 1) // 2, n % 2 == 0
        x, y = x0 + (40 if right else 0), y0 + row * pitch
        used = by_header.get(n)
        color = GND if used and used[0] == "GND" else (WIRE if used else "#bbb")
        s.circle(x, y, 7, color, 2)
        s.text(x, y + 4, n, size=9, anchor="middle")
        if used and used[0] != "GND":
            end = x + 200 if right else x - 200
            s.line([(x + (7 if right else -7), y), (end, y)])
            label = f"{used[0]} ← {used[1]}"
            s.text(end + (6 if right else -6), y + 4, label, size=12,
                   anchor="start" if right else "end")
        elif used:
            s.text(x + (14 if right else -14), y + 4, "GND", size=10,
                   anchor="start" if right else "end", color=GND)
    s.text(40, 660, "Each switch: one wire to its GPIO, the other to any GND pin. "
           "Internal pull-ups", size=12)
    s.text(40, 678, "(pull_up: true): a closed switch reads low = standing / raised.", size=12)
    return s


def drawings(pinmap):
    return {
        "wiring-hub.svg": draw_hub(pinmap["hub"]).svg(),
        "wiring-gun.svg": draw_gun(pinmap["gun"]).svg(),
        "wiring-pi.svg": draw_pi(pinmap["pi"]).svg(),
    }


def load_pinmap(path=HERE / "pinmap.yaml"):
    return yaml.safe_load(path.read_text())


def main():
    for name, svg in drawings(load_pinmap()).items():
        (HERE / name).write_text(svg)
        print("wrote", HERE / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
