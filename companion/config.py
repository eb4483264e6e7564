"""The companion's YAML configuration: loading with line numbers, checking, sections.

Every error names the file, the line and the key at fault. Each top-level section is
parsed by the module that owns it, listed in `SECTIONS` and imported only when a config
is loaded, so later parts of the companion add their section with one line here.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.yamlfile import LineMap, YamlError, parse_yaml, read_text

# section name -> "module:function"; the function takes a Node and returns the settings
SECTIONS: dict[str, str] = {
    "mqtt": "companion.bus.settings:parse",
    "sensors": "companion.sensors.settings:parse",
    "referee": "companion.referee.settings:parse",
    "dashboard": "companion.dashboard.settings:parse",
    "league": "companion.league.settings:parse",
}

DEFAULT_FILE = Path(__file__).resolve().parent.parent / "config" / "table.sim.yaml"
TABLE_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
_REQUIRED: Any = object()


ConfigError = YamlError  # file:line: key: what is wrong


class Node:
    """One mapping of the config, read key by key with checks; `done()` rejects the rest.

    This is the config sections' schema: each section's `parse(node)` (in its part's
    settings.py) reads its keys with `integer`, `number`, `flag`, `text`, `section`,
    `items`, and every error names the file, the line and the key.
    """

    def __init__(self, data: dict, file: str, path: str = "", line: int | None = None) -> None:
        self.data, self.file, self.path = data, file, path
        self.line = getattr(data, "line", line)
        self._read: set[str] = set()

    def key_path(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        return f"{self.path}.{key}" if self.path else key

    def line_of(self, key: str) -> int | None:
        return getattr(self.data, "lines", {}).get(key, self.line)

    def error(self, key: str, message: str) -> ConfigError:
        return ConfigError(self.file, self.line_of(key), self.key_path(key), message)

    def __contains__(self, key: str) -> bool:
        return key in self.data

    def _get(self, key: str, default: Any) -> Any:
        self._read.add(key)
        if key in self.data and self.data[key] is not None:
            return self.data[key]
        if default is _REQUIRED:
            raise self.error(key, "is required")
        return default

    def raw(self, key: str, default: Any = _REQUIRED) -> Any:
        """The value as YAML gave it, for keys that accept several types."""
        return self._get(key, default)

    def integer(self, key: str, default: Any = _REQUIRED, lo: int | None = None,
                hi: int | None = None) -> Any:
        value = self._get(key, default)
        if value is default:
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, f"must be a whole number, not {value!r}")
        return _check_range(self, key, value, lo, hi)

    def number(self, key: str, default: Any = _REQUIRED, lo: float | None = None,
               hi: float | None = None) -> Any:
        value = self._get(key, default)
        if value is default:
            return value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.error(key, f"must be a number, not {value!r}")
        return _check_range(self, key, float(value), lo, hi)

    def flag(self, key: str, default: Any = _REQUIRED) -> Any:
        value = self._get(key, default)
        if not isinstance(value, bool) and value is not default:
            raise self.error(key, f"must be true or false, not {value!r}")
        return value

    def text(self, key: str, default: Any = _REQUIRED, pattern: re.Pattern[str] | None = None,
             choices: tuple[str, ...] | None = None) -> Any:
        value = self._get(key, default)
        if value is default:
            return value
        if not isinstance(value, str):
            raise self.error(key, f"must be text, not {value!r}")
        if choices is not None and value not in choices:
            raise self.error(key, f"must be one of {', '.join(choices)}, not {value!r}")
        if pattern is not None and not pattern.fullmatch(value):
            raise self.error(key, f"{value!r} does not match {pattern.pattern}")
        return value

    def section(self, key: str) -> Node:
        """A nested mapping (an empty one when the key is absent)."""
        value = self._get(key, {})
        if not isinstance(value, dict):
            raise self.error(key, "must be a mapping of keys to values")
        return Node(value, self.file, self.key_path(key), self.line_of(key))

    def items(self, key: str) -> Iterator[Node]:
        """Each mapping of a list of mappings (none when the key is absent)."""
        for i, item, line in self._list(key):
            if not isinstance(item, dict):
                raise ConfigError(self.file, line, f"{self.key_path(key)}[{i}]",
                                  "must be a mapping of keys to values")
            yield Node(item, self.file, f"{self.key_path(key)}[{i}]", line)

    def int_list(self, key: str, lo: int | None = None, hi: int | None = None) -> list[int]:
        result = []
        for i, item, line in self._list(key):
            if isinstance(item, bool) or not isinstance(item, int) or not (
                (lo is None or item >= lo) and (hi is None or item <= hi)
            ):
                raise ConfigError(self.file, line, f"{self.key_path(key)}[{i}]",
                                  f"must be a whole number from {lo} to {hi}, not {item!r}")
            result.append(item)
        return result

    def _list(self, key: str) -> Iterator[tuple[int, Any, int | None]]:
        value = self._get(key, [])
        if not isinstance(value, list):
            raise self.error(key, "must be a list")
        lines = getattr(value, "lines", [])
        for i, item in enumerate(value):
            yield i, item, lines[i] if i < len(lines) else self.line_of(key)

    def done(self) -> None:
        """Reject keys nobody read: a typo must not silently fall back to a default."""
        for key in self.data:
            if key not in self._read:
                known = ", ".join(sorted(self._read)) or "none"
                raise self.error(str(key), f"unknown key (known here: {known})")



def _check_range(node: Node, key: str, value: Any, lo: Any, hi: Any) -> Any:
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise node.error(key, f"must be from {lo} to {hi}, not {value}")
    return value


@dataclass
class Config:
    """A checked configuration: the table id and one settings object per section."""

    file: str
    table: str
    sections: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        return self.sections[name]

    @property
    def mqtt(self) -> Any:
        return self.sections["mqtt"]

    @property
    def sensors(self) -> Any:
        return self.sections["sensors"]


def _parser(name: str) -> Callable[[Node], Any]:
    module, func = SECTIONS[name].split(":")
    return getattr(importlib.import_module(module), func)


def parse(text: str, file: str = "<config>") -> Config:
    """Check a config given as YAML text; raises ConfigError."""
    data = parse_yaml(text, file)
    if data is None:
        data = LineMap()
    if not isinstance(data, dict):
        raise ConfigError(file, 1, "", "the file must be a mapping of sections")
    root = Node(data, file)
    for key in data:
        if key != "table" and key not in SECTIONS:
            known = ", ".join(["table", *SECTIONS])
            raise root.error(str(key), f"unknown section (known: {known})")
    table = root.text("table", "table", pattern=TABLE_ID)
    config = Config(file, table)
    for name in SECTIONS:
        node = root.section(name)
        config.sections[name] = _parser(name)(node)
        node.done()
    return config


def load(path: str | os.PathLike | None = None) -> Config:
    """Load and check a config file (the simulated table when no path is given)."""
    path = Path(path or os.environ.get("COMPANION_CONFIG") or DEFAULT_FILE)
    return parse(read_text(path), str(path))
