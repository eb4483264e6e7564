"""What a YAML file read by people comes back as: mappings and lists that remember their
lines, and the errors that name the file, the line and the key.

Its own module so that both readers (`companion.yaml_subset`, `companion.pyyaml_loaders`)
and `companion.yamlfile`, which picks one, share these without importing each other.
"""

from __future__ import annotations

TYPE_CHECKING = False  # (typing is not imported to run: a replay starts faster)
if TYPE_CHECKING:
    from typing import Any


class FieldError(ValueError):
    """Data that is not what it should be: `key: what is wrong` (JSON: the field path)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}" if key else message)
        self.key, self.message = key, message


class YamlError(FieldError):
    """A file that is not what it should be: `file:line: key: what is wrong`."""

    def __init__(self, file: str, line: int | None, key: str, message: str) -> None:
        super().__init__(key, message)
        where = f"{file}:{line}" if line else file
        self.args = (f"{where}: {key}: {message}" if key else f"{where}: {message}",)
        self.file, self.line = file, line


class LineMap(dict):
    """A mapping that remembers its own line and the line of each key."""

    line: int
    lines: dict[Any, int]


class LineList(list):
    """A list that remembers its own line and the line of each item."""

    line: int
    lines: list[int]
