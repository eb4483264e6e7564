"""Every drawing numbers the modular jacks as the T568B plug and the jack datasheets do:
looking into a jack with its latch slot down, pin 1 is on the left."""

import math
import re

import modular
import yaml
from hardware_dir import HARDWARE

GEN = HARDWARE / "gen"


def _rotate_about_x(v, degrees):
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return (v[0], round(v[1] * c - v[2] * s), round(v[1] * s + v[2] * c))


def test_the_plug_turned_into_the_jack_keeps_contact_1_on_the_left():
    # T568B: contacts towards you (at -y), latch away (+y), tip up (+z): 1..8 left to right.
    # Pushed into a jack seen from the front (viewer facing +y), latch slot down: the plug
    # turns -90 degrees about x; its tip then points into the jack, its latch down.
    assert _rotate_about_x((0, 0, 1), -90) == (0, 1, 0)
    assert _rotate_about_x((0, 1, 0), -90) == (0, 0, -1)
    contact_1, contact_8 = _rotate_about_x((1, 0, 0), -90), _rotate_about_x((8, 0, 0), -90)
    assert contact_1[0] < contact_8[0]  # x is the viewer's right: contact 1 further left
    assert modular.jack_front(8) == list(range(1, 9))
    assert modular.jack_front(6) == list(range(1, 7))
    assert modular.jack_front(4) == [1, 2, 3, 4]
    assert modular.pin1_side() == "left"


def _texts(svg, y):
    found = re.findall(rf"<text x='([\d.]+)' y='{y}'[^>]*>([^<]*)</text>", svg)
    return [label for _, label in sorted(found, key=lambda t: float(t[0]))]


def test_the_pin_views_number_each_jack_from_pin_1_on_the_left():
    svg = (GEN / "pin-views.svg").read_text()
    numbers = _texts(svg, 126)  # the contact numbers under both jacks, left to right
    assert numbers == [str(n) for n in range(1, 9)] + [str(n) for n in range(1, 7)]
    colours = _texts(svg, 156)
    assert colours == ["WHOG", "OG", "WHGN", "BU", "WHBU", "GN", "WHBN", "BN"]  # T568B 1..8
    assert svg.count("latch slot down: pin 1 on the left") == 2
    assert "on the right" not in svg


def test_the_pin_views_show_a_t568b_plug_as_the_standard_draws_it():
    svg = (GEN / "pin-views.svg").read_text()
    assert _texts(svg, 268) == [str(n) for n in range(1, 9)]  # the plug's contacts
    assert _texts(svg, 320) == ["WHOG", "OG", "WHGN", "BU", "WHBU", "GN", "WHBN", "BN"]
    assert "contacts towards you, latch away, cable down: pin 1 on the left" in svg
    assert modular.plug_front(8) == list(range(1, 9))


def test_the_cable_drawings_and_harness_files_say_pin_1_is_on_the_left():
    for name, jacks in (("seat-cable", ("HUB", "POD")), ("gun-cord", ("POD",))):
        harness = yaml.safe_load((HARDWARE / "harness" / f"{name}.yml").read_text())
        for jack in jacks:
            note = harness["connectors"][jack]["notes"]
            assert note == "pin 1 on the left looking into the jack, latch slot down"
        svg = (GEN / f"{name}.svg").read_text()
        assert svg.count("pin 1 on the left looking into the jack") == len(jacks), name
        assert "on the right" not in svg, name
