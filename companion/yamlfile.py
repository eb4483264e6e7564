"""YAML files written by people: loaded with the line of every key and item.

Config and scenario files must say where a mistake is, so mappings and lists come back
as `dict` and `list` subclasses that remember their lines, and every error is a
`YamlError` that reads `file:line: key: what is wrong`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from pathlib import Path  # (not imported to run: a replay starts faster without it)

Path_ = tuple[str | int, ...]


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


class _DuplicateKey(yaml.MarkedYAMLError):
    pass


class _Loader(yaml.SafeLoader):
    """SafeLoader whose mappings and lists carry line numbers and refuse duplicate keys."""


_LOADERS: list[Any] = [_Loader]
if hasattr(yaml, "CSafeLoader"):
    class _FastLoader(yaml.CSafeLoader):
        """libyaml's parser with the same constructors: several times faster on a whole
        game. Its error messages differ: a text it refuses is read again by `_Loader`,
        which says what is wrong and where, in the words it always has."""

    _LOADERS.insert(0, _FastLoader)


def _construct_map(loader: _Loader, node: yaml.MappingNode) -> LineMap:
    loader.flatten_mapping(node)
    result = LineMap()
    result.line, result.lines = node.start_mark.line + 1, {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str | int | bool):
            raise _DuplicateKey(problem=f"a key must be a plain word, not {key!r}",
                                problem_mark=key_node.start_mark)
        if key in result:
            raise _DuplicateKey(problem=f"duplicate key {key!r}", problem_mark=key_node.start_mark)
        result[key] = loader.construct_object(value_node, deep=True)
        result.lines[key] = key_node.start_mark.line + 1
    return result


def _construct_int(loader: _Loader, node: yaml.ScalarNode) -> int:
    try:
        return int(yaml.SafeLoader.construct_yaml_int(loader, node))
    except ValueError:  # past Python's 4,300 digits: no table needs such a number
        raise _DuplicateKey(problem="a number of more than 4,300 digits",
                            problem_mark=node.start_mark) from None


def _construct_list(loader: _Loader, node: yaml.SequenceNode) -> LineList:
    result = LineList(loader.construct_object(item, deep=True) for item in node.value)
    result.line = node.start_mark.line + 1
    result.lines = [item.start_mark.line + 1 for item in node.value]
    return result


for _loader in _LOADERS:
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_map)
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_list)
    _loader.add_constructor("tag:yaml.org,2002:int", _construct_int)


def parse_yaml(text: str, file: str) -> Any:
    """The data of a YAML text, mappings and lists with their lines; raises YamlError."""
    if _LOADERS[0] is not _Loader:
        try:
            return yaml.load(text, Loader=_LOADERS[0])  # libyaml's
        except Exception:  # (any refusal: `_Loader` says which and where, below)
            pass
    try:
        return yaml.load(text, Loader=_Loader)  # a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or str(exc)
        if not isinstance(exc, _DuplicateKey):
            problem = f"not valid YAML: {problem}"
        raise YamlError(file, line, "", problem) from None
    except yaml.YAMLError as exc:
        raise YamlError(file, None, "", f"not valid YAML: {exc}") from None
    except RecursionError:
        raise YamlError(file, None, "", "nested too deep to be a table's file") from None


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
