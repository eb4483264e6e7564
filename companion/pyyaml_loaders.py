"""PyYAML's loaders, made to keep the line of every key and item (for `companion.yamlfile`).

Imported only for a text the plain reader (`companion.yaml_subset`) does not take: PyYAML's
import alone costs about as much as a whole `companion replay` otherwise would.
"""

from __future__ import annotations

from typing import Any

import yaml

from companion.yamlnodes import LineList, LineMap, YamlError


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


def parse_with_pyyaml(text: str, file: str) -> Any:
    """The data of any YAML text, by PyYAML; raises YamlError in PyYAML's own words."""
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
