"""Home Assistant's own code judging the table's discovery message and the blueprints.

Run by tests/homeassistant/ with the Python of a separate virtual environment that holds
the `homeassistant` package (requirements.txt beside this file). It reads a JSON request
on stdin: {"devices": [{"payload": a discovery message as text, "object_id": its topic's
id}], "states": [public states], "blueprints": [paths]}, and writes on stdout, for each
message: the log lines of warning or worse it caused, whether Home Assistant parsed it, the
keys a component's schema dropped or refused, each sensor's value rendered from each state
by Home Assistant's templates; and each blueprint's verdict, with the log lines left.
"""

from __future__ import annotations

import asyncio
import copy
import importlib
import json
import logging
import sys
import tempfile
from typing import Any

from homeassistant.components.automation.config import (
    AUTOMATION_BLUEPRINT_SCHEMA,
    async_validate_config_item,
)
from homeassistant.components.blueprint.models import Blueprint, BlueprintInputs
from homeassistant.components.mqtt import discovery
from homeassistant.components.mqtt.schemas import MQTT_ORIGIN_INFO_SCHEMA
from homeassistant.core import HomeAssistant
from homeassistant.helpers.template import Template
from homeassistant.util.yaml import load_yaml_dict

from homeassistant import loader

# keys this pinned Home Assistant does not know yet and drops, that newer ones read
NEWER_KEYS = {"default_entity_id"}  # Home Assistant 2025.10


class Kept(logging.Handler):
    """Every record of warning or worse, from any logger."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.name}: {record.getMessage()}")


def judge_device(hass: HomeAssistant, request: dict[str, Any],
                 states: list[dict[str, Any]]) -> dict[str, Any]:
    """The device message through discovery's own parser, each component through its
    platform's discovery schema, each template rendered from each state."""
    parsed = discovery._parse_device_payload(
        hass, request["payload"], request["object_id"], None)
    out: dict[str, Any] = {"parsed": bool(parsed), "dropped": {}, "invalid": {},
                           "rendered": [], "platforms": {}}
    if not parsed:
        return out
    MQTT_ORIGIN_INFO_SCHEMA(parsed["origin"])
    templates = {}
    for key, raw in parsed["components"].items():
        comp = copy.deepcopy(raw)
        discovery._merge_common_device_options(comp, parsed)
        platform = comp.pop("platform")
        out["platforms"][key] = platform
        module = importlib.import_module(f"homeassistant.components.mqtt.{platform}")
        given = {**comp, "device": parsed["device"], "origin": parsed["origin"]}
        try:
            valid = module.DISCOVERY_SCHEMA(given)
        except Exception as err:
            out["invalid"][key] = str(err)
            continue
        dropped = set(given) - set(valid) - NEWER_KEYS
        if dropped:
            out["dropped"][key] = sorted(dropped)
        if "value_template" in comp:
            templates[key] = Template(comp["value_template"], hass)
    for state in states:
        text = json.dumps(state)
        out["rendered"].append({key: t.async_render_with_possible_json_value(text, None)
                                for key, t in templates.items()})
    return out


def example(selector: dict[str, Any]) -> Any:
    """A value a user could pick with this input's selector."""
    kind, spec = next(iter(selector.items()))
    spec = spec or {}
    if kind == "target":
        return {"entity_id": ["light.table"]}
    if kind == "entity":
        domain = (spec.get("filter") or [{}])[0].get("domain", ["sensor"])
        domain = domain[0] if isinstance(domain, list) else domain
        return [f"{domain}.table"] if spec.get("multiple") else f"{domain}.table"
    return 1 if kind == "number" else "x"


async def judge_blueprint(hass: HomeAssistant, path: str) -> str:
    """`ok`, or what Home Assistant says is wrong: the blueprint's schema, then an
    automation made from it with every input given, validated as the editor does."""
    try:
        data = load_yaml_dict(path)
        bp = Blueprint(data, path=path, expected_domain="automation",
                       schema=AUTOMATION_BLUEPRINT_SCHEMA)
        inputs = {name: example(spec["selector"]) for name, spec in bp.inputs.items()
                  if "default" not in spec}
        instance = BlueprintInputs(bp, {"use_blueprint": {"path": path, "input": inputs}})
        instance.validate()
        config = instance.async_substitute()
        checked = await async_validate_config_item(hass, "check", config)
        if checked is None or checked.validation_error:
            return f"invalid automation: {checked and checked.validation_error}"
    except Exception as err:
        return f"{type(err).__name__}: {err}"
    return "ok"


async def main() -> None:
    request = json.load(sys.stdin)
    kept = Kept()
    logging.getLogger().addHandler(kept)
    with tempfile.TemporaryDirectory() as config_dir:
        hass = HomeAssistant(config_dir)
        loader.async_setup(hass)  # as bootstrap does: integrations found on demand
        await hass.async_start()
        devices = []
        for device in request["devices"]:
            devices.append(judge_device(hass, device, request["states"]))
            devices[-1]["warnings"], kept.lines = kept.lines, []
        blueprints = {p: await judge_blueprint(hass, p) for p in request["blueprints"]}
        await hass.async_stop(force=True)
    json.dump({"devices": devices, "blueprints": blueprints, "warnings": kept.lines},
              sys.stdout)


if __name__ == "__main__":
    asyncio.run(main())
