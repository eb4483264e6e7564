"""Schematics of the hub, the seat pod, the gun and the badge, drawn from pinmap.yaml.

Each sheet is a netlist: parts with numbered pins, every pin ending in a net name, so the
drawing and the connectivity check (`nets`) come from one description. Multi-pin parts
are boxes with their real pin numbers; two-pin parts are drawn with their symbols.
"""

import schemdraw
import schemdraw.elements as elm

schemdraw.use("svg")
SEATS = range(1, 9)
# the hub's 100 nF capacitors: each at its chip's supply pin
DECOUPLING = {"C2": ("U2", "+3V3"), "C3": ("U3", "+3V3"), "C4": ("U4", "+5V"),
              "C5": ("U5", "+3V3"), "C6": ("U6", "+3V3"), "C7": ("U7", "+3V3")}


class Sheet:
    """Parts placed on a grid; `nets()` lists which part pins each net joins."""

    def __init__(self, title, top=4):
        self.title, self.top = title, top
        self.chips = []  # (ref, label, left pins, right pins, (x, y))
        self.twos = []  # (ref, element, value, net_a, net_b, (x, y))

    def chip(self, ref, label, left, right, at):
        """`left`/`right`: lists of (pin number, pin name, net)."""
        self.chips.append((ref, label, left, right, at))

    def two(self, ref, element, value, net_a, net_b, at):
        self.twos.append((ref, element, value, net_a, net_b, at))

    def nets(self):
        out = {}
        for ref, _, left, right, _ in self.chips:
            for number, _, net in left + right:
                if net:
                    out.setdefault(net, []).append(f"{ref}.{number}")
        for ref, _, _, a, b, _ in self.twos:
            out.setdefault(a, []).append(f"{ref}.1")
            out.setdefault(b, []).append(f"{ref}.2")
        return out

    def svg(self):
        with schemdraw.Drawing(show=False, fontsize=10) as d:
            d += elm.Label().at((0, self.top)).label(self.title, fontsize=18, halign="left")
            for ref, label, left, right, at in self.chips:
                # schemdraw stacks a side's pins bottom up: reversed, the first is on top
                pins = [elm.IcPin(name=name, pin=str(num), side="left", anchorname=f"p{num}")
                        for num, name, _ in reversed(left)]
                pins += [elm.IcPin(name=name, pin=str(num), side="right",
                                   anchorname=f"p{num}") for num, name, _ in reversed(right)]
                ic = elm.Ic(pins=pins, pinspacing=0.6, edgepadH=0.4, edgepadW=1.2,
                            leadlen=0.5, pinlblsize=10).at(at).right()  # not the last
                # element's direction: a chip after one with only left pins came out turned
                ic.label(f"{ref}  {label}", loc="top", fontsize=12)
                d += ic
                for side, rows in (("left", left), ("right", right)):
                    for num, _, net in rows:
                        line = elm.Line().at(getattr(ic, f"p{num}")).length(1.2)
                        line = line.left() if side == "left" else line.right()
                        d += line.label(net or "n.c.", loc=side, fontsize=10)
            for ref, element, value, a, b, at in self.twos:
                part = element().at(at).down().label(f"{ref}\n{value}", loc="bottom",
                                                     fontsize=9)
                d += part
                d += elm.Line().at(part.start).up(0.4).label(a, loc="top", fontsize=9)
                d += elm.Line().at(part.end).down(0.4).label(b, loc="bottom", fontsize=9)
        return d.get_imagedata("svg").decode()


def _chain(prefix, pins, offset=0):
    return [(p, f"{prefix}{i}", f"{prefix}{i + offset}") for i, p in enumerate(pins)]


def hub(pinmap):
    hub = pinmap["hub"]
    cat = pinmap["cat5e"]
    s = Sheet("Hub: Raspberry Pi Pico, slots for 8 seats (hardware/pinmap.yaml)", top=9)
    gp = {}  # GP number -> net
    for seat, p in hub["receivers"].items():
        gp[p["gp"]] = f"RXB{seat}"
    gp[hub["carrier"]["gp"]] = "CARRIER"
    for name, p in hub["address"].items():
        gp[p["gp"]] = name
    for name, p in hub["lock"].items():
        gp[p["gp"]] = f"LOCK_{name.upper()}"
    for name, p in hub["inputs"].items():
        gp[p["gp"]] = f"IN_{name.upper()}"
    for name, p in hub["i2c"].items():
        gp[p["gp"]] = name
    board = {p["gp"]: p["pin"] for group in ("receivers", "address", "lock", "inputs", "i2c")
             for p in hub[group].values()}
    board[hub["carrier"]["gp"]] = hub["carrier"]["pin"]
    power = hub["power"]
    s.chip("U1", "Raspberry Pi Pico", [(board[g], f"GP{g}", gp[g]) for g in sorted(gp)],
           [(power["vbus"], "VBUS", "+5V"), (power["3v3_out"], "3V3(OUT)", "+3V3"),
            (power["ground"][0], "GND", "GND")], (0, -12))
    s.chip("U2", "74LVC245A (5 V tolerant)",
           [(1, "DIR", "+3V3"), *[(1 + i, f"A{i}", f"RX{i}") for i in SEATS],
            (19, "~OE", "GND")],
           [(20, "VCC", "+3V3"), *[(19 - i, f"B{i}", f"RXB{i}") for i in SEATS],
            (10, "GND", "GND")], (14, 0))
    s.chip("U3", "74HC238 decoder",
           [(1, "A0", "A0"), (2, "A1", "A1"), (3, "A2", "A2"), (4, "~E1", "GND"),
            (5, "~E2", "GND"), (6, "E3 (G1)", "CARRIER")],
           [(16, "VCC", "+3V3"), *[(15 - i, f"Y{i}", f"DRV{i + 1}") for i in range(7)],
            (7, "Y7", "DRV8"), (8, "GND", "GND")], (14, -12))
    s.chip("U4", "ULN2803A",
           [*[(i, f"{i}B", f"DRV{i}") for i in SEATS], (9, "GND", "GND")],
           [(10, "COM", "+5V"), *[(19 - i, f"{i}C", f"BADGE_K{i}") for i in SEATS]],
           (28, -12))
    s.chip("U5", "74HC595 (lock LEDs)",
           [(14, "DS", "LOCK_DATA"), (11, "SHCP", "LOCK_CLOCK"), (12, "STCP", "LOCK_LATCH"),
            (10, "~MR", "+3V3"), (13, "~OE", "GND"), (16, "VCC", "+3V3"), (8, "GND", "GND")],
           [(15, "Q0", "LOCKQ1"), *[(i, f"Q{i}", f"LOCKQ{i + 1}") for i in range(1, 8)],
            (9, "Q7S", None)], (0, -30))
    mux = hub["mux"]
    s.chip("U6", f"{mux['part']} breakout (I2C 0x{mux['address']:02X}), header as printed",
           [(1, "VIN", "+3V3"), (2, "GND", "GND"), (3, "SDA", "SDA"), (4, "SCL", "SCL"),
            (5, "RST", "+3V3"), (6, "A0", "GND"), (7, "A1", "GND"), (8, "A2", "GND")],
           [(9 + 2 * i + k, f"{line}{i}", f"{('SDA', 'SCL')[k]}{i + 1}")
            for i in range(8) for k, line in enumerate(("SD", "SC"))], (28, -30))
    s.chip("U7", "74HC165 (reeds)",
           [(1, "~PL", "IN_LOAD"), (2, "CP", "IN_CLOCK"), (15, "~CE", "GND"),
            (10, "DS", "GND"), (16, "VCC", "+3V3"), (8, "GND", "GND")],
           [*[(11 + i, f"D{i}", f"REED{i + 1}") for i in range(4)],
            *[(3 + i - 4, f"D{i}", f"REED{i + 1}") for i in range(4, 8)],
            (9, "Q7", "IN_DATA"), (7, "~Q7", None)], (42, -30))
    ohm = f"{mux['pullup_ohm'] / 1000:g} kΩ"
    for ref, value, rail, nets in (("RN1", ohm, "+3V3", "SDA"), ("RN2", "10 kΩ", "+3V3", "REED"),
                                   ("RN3", "10 kΩ", "+5V", "RX"), ("RN4", ohm, "+3V3", "SCL")):
        s.chip(ref, f"{value} ×8 bussed SIP-9", [(1, "COM", rail)],
               [(1 + i, f"R{i}", f"{nets}{i}") for i in SEATS],
               (28 + 10 * (int(ref[-1]) - 1) + (30 if ref == "RN4" else 0), 0))
    for seat in SEATS:
        net = {"+5V": f"+5V_{seat}", "GND": "GND", "BADGE_K": f"BADGE_K{seat}",
               "RX": f"RX{seat}", "SDA": f"SDA{seat}", "SCL": f"SCL{seat}",
               "LOCK": f"LOCK{seat}", "REED": f"REED{seat}"}
        s.chip(f"J{seat}", f"RJ45 seat {seat}", [],
               [(pin, f"{pin} {cat[pin]['signal']}", net[cat[pin]["signal"]])
                for pin in sorted(cat)], (4 + 10 * (seat - 1), -46))
    for seat in SEATS:
        s.two(f"R{seat}", elm.Resistor, "330 Ω", f"LOCKQ{seat}", f"LOCK{seat}",
              (58 + 3 * seat, -30))
        s.two(f"F{seat}", elm.Fuse, "MF-R050", "+5V", f"+5V_{seat}", (58 + 3 * seat, -12))
    host = f"{mux['host_pullup_ohm'] / 1000:g} kΩ"
    for ref, line in (("R9", "SDA"), ("R10", "SCL")):
        s.two(ref, elm.Resistor, f"{host}\n{line} pull-up", "+3V3", line,
              (61 + 3 * int(ref[1:]), -30))
    s.two("C1", elm.Capacitor, "470 µF 10 V", "+5V", "GND", (61, -2))
    for ref, (chip, rail) in DECOUPLING.items():
        s.two(ref, elm.Capacitor, f"100 nF\nat {chip}", rail, "GND",
              (61 + 3 * int(ref[1:]) - 3, -2))
    return s


def mirror_spare(cat):
    """The pod pins left open: where a mirrored cable puts the hub's +5 V, if that pin is
    a second GND the pod can do without. Otherwise (a signal there) the mirrored +5 V meets
    what the pod has on that signal: R2's 1 kOhm on REED."""
    (supply,) = [p for p in cat if cat[p]["signal"] == "+5V"]
    mirror = len(cat) + 1 - supply
    grounds = [p for p in cat if cat[p]["signal"] == "GND"]
    return {mirror} if mirror in grounds and len(grounds) > 1 else set()


def pod(pinmap):
    """The pod protects itself and the hub from a wrong cable (power.py has the budget):
    Q1 passes +5 V only the right way round, F1 limits the gun's cord, R2 limits what a
    swapped ground or a mirrored cable's +5 V (on pin 8, REED) pushes anywhere, R3 what a
    crossover cable's +5 V (on pin 3, RX) pushes into the receiver's output, and the pin
    where a mirrored cable puts +5 V stays open when it is a spare GND (`mirror_spare`).
    SDA and SCL pass straight through: on a mirrored cable they meet LOCK and BADGE_K, never
    a supply (hardware/README.md, "A wrong cable harms nothing")."""
    cat, pod = pinmap["cat5e"], pinmap["pod"]
    cable = {"+5V": "+5V_IN", "GND": "GND", "REED": "REED_IN", "RX": "RX_IN"}
    spare = mirror_spare(cat)
    s = Sheet("Seat pod: protection, jacks and the reed switch (hardware/pinmap.yaml)", top=12)
    s.chip("J1", "RJ45 from the hub", [],
           [(pin, f"{pin} {'open' if pin in spare else cat[pin]['signal']}",
             None if pin in spare else cable.get(cat[pin]["signal"], cat[pin]["signal"]))
            for pin in sorted(cat)], (0, 0))
    s.chip("Q1", "AO3401A P-MOSFET (SOT-23)", [(3, "D", "+5V_IN"), (1, "G", "GATE")],
           [(2, "S", "+5V")], (12, 4))
    s.two("R1", elm.Resistor, "10 kΩ", "GATE", "GND", (20, 8))
    s.two("F1", elm.Fuse, "MF-R010\nPTC 0.1 A", "+5V", "+5V_GUN", (23, 8))
    s.two("R3", elm.Resistor, "1 kΩ", "RX_IN", "RX", (20, -4))
    gun = {"+5V": "+5V_GUN"}
    s.chip("J2", "6P6C jack: gun", [(pin, str(pin), gun.get(net, net)) for pin, net in
                                    sorted(pod["gun_6p6c"].items())], [], (30, 0))
    s.chip("J3", "3.5 mm jack: badge", [(n, part.upper(), pod["badge_trs"][part]) for n, part
                                        in enumerate(("tip", "ring", "sleeve"), 1)], [],
           (30, -7))
    a, b = pod["reed"]
    s.two("R2", elm.Resistor, "1 kΩ", cable.get(a, a), "REED_SW", (38, 0))
    s.two("S1", elm.SwitchReed, "reed switch, NO\n(standee base)", "REED_SW", b, (38, -6))
    return s


def gun(pinmap):
    """The gun's parts on its cord. The IMU breakout's header differs between makers: the
    pins are named as printed on it, and numbered here only for the wiring."""
    pins, imu = pinmap["pod"]["gun_6p6c"], pinmap["gun"]["imu"]
    s = Sheet("Gun: receiver, IMU, lock LED (no firmware: the hub reads the IMU)", top=7)
    s.chip("P1", "6P6C cord from the pod", [], [(pin, str(pin), net) for pin, net in
                                                sorted(pins.items())], (0, 0))
    s.chip("U1", "TSOP38238 (OUT-GND-VS)", [(1, "OUT", "RX"), (2, "GND", "GND"),
                                             (3, "VS", "VS")], [], (12, -1))
    s.two("R1", elm.Resistor, "100 Ω", "+5V", "VS", (18, 0))
    s.two("C1", elm.Capacitor, "4.7 µF", "VS", "GND", (21, 0))
    s.two("D1", elm.LED, "lock LED\ngreen 3 mm", "LOCK", "GND", (24, 0))
    s.chip("U2", f"{imu['part']} breakout (I2C 0x{imu['address']:02X}), pins as printed",
           [(1, "VIN", "+5V"), (2, "GND", "GND"), (3, "SCL", "SCL"), (4, "SDA", "SDA"),
            (5, "SDO/SA0", "GND"), (6, "CS", "3V3_IMU"), (7, "3V3 (out)", "3V3_IMU"),
            (8, "INT1", None), (9, "INT2", None)], [], (12, -12))
    return s


def badge(pinmap):
    trs = pinmap["badge"]
    s = Sheet("Badge: worn at chest height, 3 IR LEDs fanned -45°, 0°, +45°")
    s.chip("P1", "3.5 mm plug from the pod", [],
           [(1, "TIP", "+5V"), (2, "RING", None), (3, "SLEEVE", "BADGE_K")], (0, 0))
    for i in range(1, trs["leds"] + 1):
        s.two(f"R{i}", elm.Resistor, f"{trs['resistor_ohm']} Ω", "+5V", f"A{i}",
              (8 + 4 * i, 0))
        s.two(f"D{i}", elm.LED, "TSAL6400\n940 nm", f"A{i}", "BADGE_K", (8 + 4 * i, -5))
    return s


def sheets(pinmap):
    """Each schematic sheet by its file name."""
    return {f"schematic-{name}.svg": make(pinmap)
            for name, make in (("hub", hub), ("pod", pod), ("gun", gun), ("badge", badge))}
