"""Scenario files: the table's language on paper (shared/spec/scenario-format.md)."""

from companion.scenario.load import Scenario, load_scenario, parse_scenario
from companion.scenario.replay import Replay, replay

__all__ = ["Replay", "Scenario", "load_scenario", "parse_scenario", "replay"]
