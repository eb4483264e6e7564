"""The hub's perfboard layout (an SVG) from a listing of where each part sits, in holes
(2.54 mm) from the board's top-left hole, and the point-to-point wiring list from the
hub schematic's nets.

A double-sided 9 x 15 cm board (34 x 56 holes) takes the Pico on female headers, five
DIP sockets, the TCA9548A breakout on its own two 1x12 pin headers, four SIP resistor networks,
the fuses, the resistors, the capacitors, and
eight 1x8 headers for the RJ45 breakout boards, which overhang the board: seats 1 to 6
along the top edge, 7 and 8 on the right edge. Every part carries its schematic
designator, so the drawing, the schematic and the wiring list name it the same way.
"""

from xml.sax.saxutils import escape

from schematics import DECOUPLING

COLS, ROWS = 56, 34
PITCH = 12  # px per hole in the drawing
MARGIN = 40
JACK = 9  # rows or columns an RJ45 breakout board reaches past the board's edge
FONT = 10  # label size, px; a label's box is FONT high and 0.6 FONT per character wide
TOP = MARGIN + 36 + JACK * PITCH  # room for the title and the jack boards

# ref, kind, column, row, pins (DIP: all pins; row of pins: count), label, DIP width, where
# the label goes ("below" the part or to its "right"); refs are the schematic's
PARTS = [
    ("U1", "dip", 2, 23, 40, "U1 Pico on 2x20 female headers (USB to the left)", 7,
     "below"),
    ("U2", "dip", 26, 14, 20, "U2 74LVC245A", 3, "below"),
    ("U3", "dip", 26, 24, 16, "U3 74HC238", 3, "below"),
    ("U4", "dip", 38, 24, 18, "U4 ULN2803A", 3, "below"),
    ("U5", "dip", 2, 13, 16, "U5 74HC595", 3, "below"),
    ("U6", "dip", 40, 13, 24, "U6 TCA9548A board, 2x12 pins", 7, "below"),
    ("U7", "dip", 14, 6, 16, "U7 74HC165 reeds", 3, "below"),
    ("RN1", "row", 2, 7, 9, "RN1 2.2k SDA pull-ups", 0, "below"),
    ("RN2", "row", 2, 4, 9, "RN2 10k reeds", 0, "below"),
    ("RN3", "row", 26, 7, 9, "RN3 10k RX to +5V", 0, "below"),
    ("RN4", "row", 40, 2, 9, "RN4 2.2k SCL pull-ups", 0, "below"),
    ("R9", "pair", 14, 9, 2, "R9 4.7k", 0, "below"),  # the Pico's SDA and SCL pull-ups
    ("R10", "pair", 19, 9, 2, "R10 4.7k", 0, "below"),
    *[(f"R{s}", "pair", 2 + 3 * (s - 1), 27, 2, f"R{s}", 0, "below") for s in range(1, 9)],
    *[(f"F{s}", "pair", 26 + 3 * (s - 1), 27, 2, f"F{s}", 0, "below") for s in range(1, 9)],
    ("C1", "row", 50, 24, 2, "C1 470 uF (+ left)", 0, "below"),
    ("C2", "row", 36, 11, 2, "C2", 0, "right"),
    ("C3", "row", 34, 21, 2, "C3", 0, "right"),
    ("C4", "row", 47, 21, 2, "C4", 0, "right"),
    ("C5", "row", 10, 10, 2, "C5", 0, "right"),
    ("C6", "row", 51, 3, 2, "C6", 0, "right"),
    ("C7", "row", 22, 3, 2, "C7", 0, "right"),
    *[(f"J{s}", "row", 1 + 9 * (s - 1), 0, 8, f"J{s} RJ45 seat {s}", 0, "jack")
      for s in range(1, 7)],
    *[(f"J{s}", "col", 54, 4 + 10 * (s - 7), 8, f"J{s} RJ45 seat {s}", 0, "jack")
      for s in (7, 8)],
]
CAPTIONS = [  # (text, column, row): what a row of small parts is
    ("R1-R8 330 ohm, lock LEDs", 2, 34.4), ("F1-F8 PTC MF-R050, +5V per seat", 26, 34.4),
    ("100 nF: " + ", ".join(f"{c} at {chip}" for c, (chip, _) in DECOUPLING.items()), 2, 1.7),
]


def holes(part):
    """The holes of a part, pin 1 first, as (column, row)."""
    _, kind, col, row, pins, _, width, _ = part
    if kind == "dip":  # pin 1 bottom left, counting anticlockwise seen from the top
        half = pins // 2
        return ([(col + i, row) for i in range(half)]
                + [(col + half - 1 - i, row - width) for i in range(half)])
    if kind == "row":
        return [(col + i, row) for i in range(pins)]
    if kind == "col":
        return [(col, row + i) for i in range(pins)]
    return [(col, row), (col, row + 4)]  # a resistor or fuse standing across 4 rows


def _xy(col, row):
    return MARGIN + col * PITCH, TOP + row * PITCH


def jack_board(part):
    """The RJ45 breakout board's outline (x, y, w, h), past the board's edge."""
    pins = holes(part)
    (x0, y0), (x1, y1) = _xy(*pins[0]), _xy(*pins[-1])
    if part[1] == "row":  # top edge: the board reaches up
        return x0 - 8, y0 - JACK * PITCH, x1 - x0 + 16, JACK * PITCH - 8
    return x0 + 8, y0 - 8, JACK * PITCH - 8, y1 - y0 + 16


def label_box(part):
    """Where a part's label is drawn: (x, y of the baseline, anchor, box x, y, w, h)."""
    pins = holes(part)
    xs = [_xy(*p)[0] for p in pins]
    ys = [_xy(*p)[1] for p in pins]
    width = 0.6 * FONT * len(part[5])
    place = part[7]
    if place == "jack":
        bx, by, bw, _ = jack_board(part)
        if part[1] == "row":
            x, y = bx + bw / 2, by + 14
        else:
            x, y = bx + bw / 2, by - 6
        return x, y, "middle", x - width / 2, y - FONT, width, FONT
    if place == "right":
        x, y = max(xs) + 10, (min(ys) + max(ys)) / 2 + FONT / 2 - 1
        return x, y, "start", x, y - FONT, width, FONT
    x, y = (min(xs) + max(xs)) / 2, max(ys) + 20
    return x, y, "middle", x - width / 2, y - FONT, width, FONT


def _text(x, y, text, anchor="middle", size=FONT, weight="normal"):
    return (f"<text x='{x:g}' y='{y:g}' font-family='DejaVu Sans, sans-serif' "
            f"font-size='{size}' font-weight='{weight}' text-anchor='{anchor}'>"
            f"{escape(text)}</text>")


def svg():
    w = 2 * MARGIN + (COLS - 1 + JACK) * PITCH
    h = TOP + (ROWS + 1) * PITCH + MARGIN
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' "
           f"viewBox='0 0 {w} {h}'>", "<rect width='100%' height='100%' fill='white'/>",
           _text(MARGIN, 22, "Hub perfboard, component side (2.54 mm holes; square: pin 1)",
                 "start", 16, "bold")]
    x0, y0 = _xy(0, 0)
    out += ["<defs><pattern id='hole' width='{0}' height='{0}' patternUnits='userSpaceOnUse' "
            "x='{1}' y='{2}'><circle cx='{3}' cy='{3}' r='1.6' fill='#b9a878'/></pattern>"
            "</defs>".format(PITCH, x0 - PITCH / 2, y0 - PITCH / 2, PITCH / 2),
            f"<rect x='{x0 - PITCH / 2}' y='{y0 - PITCH / 2}' width='{COLS * PITCH}' "
            f"height='{ROWS * PITCH}' fill='#f3ecd8'/>",
            f"<rect x='{x0 - PITCH / 2}' y='{y0 - PITCH / 2}' width='{COLS * PITCH}' "
            f"height='{ROWS * PITCH}' fill='url(#hole)'/>"]
    for part in PARTS:
        pins = holes(part)
        xs = [_xy(*p)[0] for p in pins]
        ys = [_xy(*p)[1] for p in pins]
        if part[7] == "jack":
            bx, by, bw, bh = jack_board(part)
            out.append(f"<rect x='{bx}' y='{by}' width='{bw}' height='{bh}' rx='3' "
                       "fill='#3a6b3a55' stroke='#2b4d2b' stroke-width='1.2'/>")
        out.append(f"<rect x='{min(xs) - 7}' y='{min(ys) - 7}' width='{max(xs) - min(xs) + 14}'"
                   f" height='{max(ys) - min(ys) + 14}' rx='3' fill='#ffffffaa' "
                   "stroke='#333' stroke-width='1.2'/>")
        for i, (x, y) in enumerate(zip(xs, ys, strict=True)):
            if i == 0:
                out.append(f"<rect x='{x - 4}' y='{y - 4}' width='8' height='8' fill='#c33'/>")
            else:
                out.append(f"<circle cx='{x}' cy='{y}' r='3.5' fill='#777'/>")
        x, y, anchor, *_ = label_box(part)
        out.append(_text(x, y, part[5], anchor))
    for text, col, row in CAPTIONS:
        x, y = _xy(col, row)
        out.append(_text(x, y, text, "start"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def wiring_list(sheet):
    """Markdown: each net of a schematic sheet and the part pins it joins."""
    nets = sheet.nets()
    wires = sum(len(pins) - 1 for pins in nets.values())
    lines = [f"# Wiring list: {sheet.title}", "",
             "Generated by `python hardware/build.py` from the schematic. Tick each wire "
             "off as you solder it; `U1.40` is part U1, pin 40. The designators are the "
             f"schematic's and the perfboard drawing's. {wires} wires: a net joining n "
             "pins takes n - 1.", "",
             "| net | joins |", "|---|---|"]
    lines += [f"| {net} | {', '.join(pins)} |" for net, pins in sorted(nets.items())]
    boards = [(ref, label, left + right) for ref, label, left, right, _ in sheet.chips
              if "breakout" in label]
    if boards:  # a breakout's header order is its maker's: the numbers stand for names
        lines += ["", "Breakout boards: wire by the pin name printed on the board."]
        lines += [f"- {ref} ({label}): " + ", ".join(f"{n} {name}" for n, name, _ in
                                                    sorted(pins)) for ref, label, pins in boards]
    return "\n".join(lines) + "\n"
