"""Which side pin 1 of a modular jack is on, derived rather than remembered.

The facts (TIA-568's T568B figure; FCC 47 CFR 68.500 and IEC 60603-7 number 4P4C, 6P6C
and 8P8C modular plugs the same way; every jack datasheet mates contact n with the plug's
contact n):

- a plug held with its contacts towards you, latch away and cable hanging down has its
  contacts 1 to n from left to right (how a T568B cable is crimped: white-orange first);
- a jack is looked into along the plug's path as the plug goes in.

`jack_front` turns the plug of the first fact round until it points into a jack seen from
the front with its latch slot down, and reads the contacts off from left to right. Every
pin-1 view and cable note is drawn from it.
"""

# plug frame: x across the contacts, y out of the latch side, z towards the plug's tip;
# contact k sits at x = k (the first fact: viewer at -y facing +y, right = +x, up = +z)
TIP, LATCH, ACROSS = (0, 0, 1), (0, 1, 0), (1, 0, 0)
# the viewer's frame: facing +y (into the jack), up +z, right +x
INTO, DOWN, RIGHT = (0, 1, 0), (0, 0, -1), (1, 0, 0)


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _dot(a, b):
    return sum(x * y for x, y in zip(a, b, strict=True))


def _rotated_across():
    """Where the plug's `ACROSS` axis points once the tip points into the jack and the
    latch down: a rotation keeps cross products, and ACROSS = LATCH x TIP (checked by
    tests/hardware/test_pin_one.py)."""
    return _cross(DOWN, INTO)


def plug_front(contacts):
    """The contacts of a plug held contacts towards you, latch away, cable down, from left
    to right: the first fact, contact k at x = k along `ACROSS`, the viewer's right."""
    across = _dot(ACROSS, RIGHT)
    return sorted(range(1, contacts + 1), key=lambda k: across * k)


def jack_front(contacts):
    """The contacts of a jack seen from the front, latch slot down, from left to right."""
    across = _dot(_rotated_across(), RIGHT)  # +1: contact k further right as k grows
    return sorted(range(1, contacts + 1), key=lambda k: across * k)


def pin1_side(contacts=8):
    """'left' or 'right': where pin 1 is looking into the jack, latch slot down."""
    return "left" if jack_front(contacts)[0] == 1 else "right"


def view_note(contacts=8):
    return f"pin 1 on the {pin1_side(contacts)} looking into the jack, latch slot down"
