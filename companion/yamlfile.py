"""YAML documents that remember where each value came from.

Config and scenario files are written by people; an error must say the file, the
line and the key at fault, so values are loaded with the line of every node.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

Path_ = tuple[str | int, ...]


class YamlError(ValueError):
    """A file that is not what it should be: `file:line: key: what is wrong`."""

    def __init__(self, filename: str, line: int | None, key: str, message: str) -> None:
        where = f"{filename}:{line}" if line else filename
        super().__init__(f"{where}: {key}: {message}" if key else f"{where}: {message}")
        self.filename, self.line, self.key, self.message = filename, line, key, message


def dotted(path: Path_) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


@dataclass
class YamlDoc:
    data: Any
    lines: dict[Path_, int]
    filename: str

    def line(self, path: Path_) -> int | None:
        """The line of the value at `path`, or of its nearest parent that has one."""
        while path not in self.lines and path:
            path = path[:-1]
        return self.lines.get(path)

    def error(self, path: Path_, message: str) -> YamlError:
        return YamlError(self.filename, self.line(path), dotted(path), message)


def load_yaml(source: str | Path, filename: str | None = None) -> YamlDoc:
    """Load a file (a Path) or text (a str) and keep every node's 1-based line."""
    if isinstance(source, Path):
        filename = filename or str(source)
        try:
            text = source.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise YamlError(filename, None, "", f"cannot read the file: {e}") from None
    else:
        text, filename = source, filename or "<text>"
    loader = yaml.SafeLoader(text)
    lines: dict[Path_, int] = {}
    try:
        node = loader.get_single_node()
        data = None if node is None else _build(loader, node, (), lines, filename)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark else None
        raise YamlError(filename, line, "", f"not valid YAML: {e.problem or e}") from None
    except yaml.YAMLError as e:
        raise YamlError(filename, None, "", f"not valid YAML: {e}") from None
    finally:
        loader.dispose()
    return YamlDoc(data, lines, filename)


def _build(loader: yaml.SafeLoader, node: yaml.Node, path: Path_,
           lines: dict[Path_, int], filename: str) -> Any:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, str | int | bool) or key is None:
                raise YamlError(filename, key_node.start_mark.line + 1, dotted(path),
                                f"a key must be a plain word, not {key!r}")
            if key in out:
                raise YamlError(filename, key_node.start_mark.line + 1, dotted((*path, key)),
                                "this key is given twice")
            out[key] = _build(loader, value_node, (*path, key), lines, filename)
            lines[(*path, key)] = key_node.start_mark.line + 1  # point at the key's line
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(loader, n, (*path, i), lines, filename) for i, n in enumerate(node.value)]
    return loader.construct_object(node, deep=True)
