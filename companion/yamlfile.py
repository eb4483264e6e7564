"""YAML files written by people: loaded with the line of every key and item.

Config and scenario files must say where a mistake is, so mappings and lists come back
as `dict` and `list` subclasses that remember their lines, and every error is a
`YamlError` that reads `file:line: key: what is wrong`.
"""

from __future__ import annotations

import os

# What a file comes back as, and its errors: read from here by the callers of this module.
from companion.yamlnodes import FieldError as FieldError
from companion.yamlnodes import LineList as LineList
from companion.yamlnodes import LineMap as LineMap
from companion.yamlnodes import YamlError

TYPE_CHECKING = False  # (typing and pathlib are not imported to run: a replay starts faster)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

Path_ = tuple[str | int, ...]


def parse_yaml(text: str, file: str) -> Any:
    """The data of a YAML text, mappings and lists with their lines; raises YamlError.

    A text in the plain subset scenario files are written in is read without PyYAML
    (`companion.yaml_subset`, the same data and lines); any other is read by PyYAML.
    """
    from companion import yaml_subset

    data = yaml_subset.parse(text)
    if data is not None:
        return data
    from companion.pyyaml_loaders import parse_with_pyyaml

    return parse_with_pyyaml(text, file)


def read_text(path: str | os.PathLike[str]) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as exc:
        raise YamlError(str(path), None, "", f"cannot read the file: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise YamlError(str(path), None, "", "is not UTF-8 text") from None


def dotted(path: Path_) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


class YamlDoc:
    """A file's data, with the lines it came from, and its name for errors."""

    def __init__(self, data: Any, filename: str) -> None:
        self.data, self.filename = data, filename

    def line(self, path: Path_) -> int | None:
        """The line of the value at `path`, or of its nearest parent that has one."""
        node, best = self.data, getattr(self.data, "line", None)
        for part in path:
            lines = getattr(node, "lines", None)
            try:
                best = lines[part] if lines is not None else best
                node = node[part]
            except (KeyError, IndexError, TypeError):
                break
        return best

    def error(self, path: Path_, message: str) -> YamlError:
        return YamlError(self.filename, self.line(path), dotted(path), message)


def load_yaml(source: str | Path, filename: str | None = None) -> YamlDoc:
    """Load a file (a Path) or text (a str), keeping every key's and item's line."""
    if isinstance(source, os.PathLike):
        return read_yaml(source, filename)
    return YamlDoc(parse_yaml(source, filename or "<text>"), filename or "<text>")


def read_yaml(path: str | os.PathLike[str], filename: str | None = None) -> YamlDoc:
    """Load the file at `path`, keeping every key's and item's line."""
    filename = filename or os.fspath(path)
    return YamlDoc(parse_yaml(read_text(path), filename), filename)
