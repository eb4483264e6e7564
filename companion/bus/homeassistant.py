"""Home Assistant's MQTT discovery of a table: one retained device-based message.

Home Assistant reads `<prefix>/device/<device_id>/config` once and makes one device with
every component it lists (`cmps`): an event entity per seat, fed by `player/<seat>/event`,
and sensors read from the retained public state (`game/state`) through value templates:
the phase, the stage (a countdown running), the round and the Godfather, and each seat's
player, wounds, loot and standing. One message, not one per entity, so the table appears
or changes whole; it is published again when Home Assistant says it is back
(`<prefix>/status` = `online`), as Home Assistant asks of every discovery source. Every
entity is available while the referee's last will (`referee/status`) says `online`.
"""

from __future__ import annotations

from typing import Any

from companion import __version__
from companion.bus.topics import SEATS, Topics

# What the seat's event entity may fire (docs/MQTT.md): the events one player is in
PLAYER_EVENTS = ("shot", "wounded", "eliminated", "lay_down", "loot_taken", "godfather")
STANDINGS = ("standing", "lying", "out")  # a seat's `standing` sensor


def seat_row(seat: int) -> str:
    """A Jinja statement: `p` is the seat's row of the public state's players, or empty."""
    return (f"{{% set p = value_json.players | default([]) | selectattr('seat', 'eq', {seat})"
            " | list %}")


def seat_value(seat: int, expression: str) -> str:
    """A template giving `expression` of the seat's player (`p`), `None` (unknown to Home
    Assistant) when nobody sits there."""
    return seat_row(seat) + f"{{{{ ({expression}) if p else None }}}}"


def standing_template(seat: int) -> str:
    """`out`, `lying` (the standee down, as the game counts it or still lying from an
    earlier step) or `standing`; unknown when nobody sits there."""
    return seat_row(seat) + (
        "{% if not p %}None{% elif not p[0].alive %}out"
        "{% elif p[0].standee and p[0].standee.kind in ('down', 'stand_up') %}lying"
        "{% else %}standing{% endif %}")


def components(topics: Topics) -> dict[str, dict[str, Any]]:
    """Every entity of the table, by its component id (also the end of its unique id)."""
    state = topics.game_state

    def sensor(key: str, name: str, template: str, **more: Any) -> dict[str, Any]:
        uid = topics.entity(key)
        return {"p": "sensor", "name": name, "unique_id": uid,
                "default_entity_id": f"sensor.{uid}", "state_topic": state,
                "value_template": template, **more}

    out = {
        "phase": sensor("phase", "Phase", "{{ value_json.phase }}", icon="mdi:cards-playing"),
        "round": sensor("round", "Round", "{{ value_json.round }}", icon="mdi:counter"),
        "stage": sensor("stage", "Stage",  # `countdown` while the table counts to three
                        "{{ value_json.stage.name if value_json.stage is mapping else None }}",
                        icon="mdi:timer-sand"),
        "godfather": sensor("godfather", "Godfather", "{{ value_json.godfather }}",
                            icon="mdi:crown"),
    }
    for seat in SEATS:
        uid = topics.seat_entity(seat)
        out[f"seat{seat}"] = {
            "p": "event", "name": f"Seat {seat}", "unique_id": uid,
            "default_entity_id": f"event.{uid}", "state_topic": topics.player_event(seat),
            "event_types": list(PLAYER_EVENTS)}
        out[f"seat{seat}_player"] = sensor(
            f"seat{seat}_player", f"Seat {seat} player", seat_value(seat, "p[0].name"),
            icon="mdi:account")
        out[f"seat{seat}_wounds"] = sensor(
            f"seat{seat}_wounds", f"Seat {seat} wounds", seat_value(seat, "p[0].wounds"),
            state_class="measurement", icon="mdi:bandage")
        out[f"seat{seat}_loot"] = sensor(
            f"seat{seat}_loot", f"Seat {seat} loot", seat_value(seat, "p[0].loot_count"),
            state_class="measurement", icon="mdi:sack")
        out[f"seat{seat}_standing"] = sensor(
            f"seat{seat}_standing", f"Seat {seat} standing", standing_template(seat),
            device_class="enum", options=list(STANDINGS), icon="mdi:human-handsup")
    return out


def device_discovery(topics: Topics) -> dict[str, Any]:
    """The device-based discovery payload (`dev`, `o`, `cmps`) of the table."""
    table = topics.table
    return {
        "dev": {"identifiers": [topics.device_id], "name": f"Cash 'n Guns table {table}",
                "manufacturer": "Cash 'n Guns table companion", "model": "Table referee",
                "sw_version": __version__},
        "o": {"name": "cashnguns-companion", "sw_version": __version__},
        "cmps": components(topics),
        "availability_topic": topics.referee_status,  # shared by every component
    }
