"""A reader for the plain YAML that scenario files are written in; None for any other text.

Importing PyYAML costs about 20 ms, as much as the rest of a `companion replay`
(docs/PERFORMANCE.md, "Short commands"). This reader takes only a strict subset of YAML:
a block mapping at the top; nested block mappings and lists (a list may sit at its key's
indent, an item may be `- key: value` lines); flow lists and mappings on one line;
comments after a space; and plain scalars that are words (`[A-Za-z_][A-Za-z0-9_.]*`, with
PyYAML's true/false/null words) or whole numbers without a leading zero or `_`. It gives
the same `LineMap`s and `LineList`s, with the same lines, as PyYAML's loaders
(`companion.pyyaml_loaders`). Anything else, or anything doubtful (a tab, a quote, a
non-ASCII character, a duplicate key, a text carried on to a further line), gives None:
the caller then hands the text to PyYAML, which reads it or says what is wrong in its own
words. `tests/scenario/test_yaml_subset.py` checks it against PyYAML. Why: docs/DESIGN-NOTES.md.
"""

from __future__ import annotations

import re

from companion.yamlnodes import LineList, LineMap

# PyYAML's implicit resolvers (YAML 1.1) for a plain scalar that starts with a letter.
_WORDS: dict[str, bool | None] = {
    **dict.fromkeys(["yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"], True),
    **dict.fromkeys(["no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"], False),
    **dict.fromkeys(["null", "Null", "NULL"], None),
}
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_.]{0,127}):(?: +(.*))?$")
_ITEM = re.compile(r"-( +)(.*)$")
# One flow token after optional spaces: punctuation (1), a scalar (2), or ": " (3).
_TOKEN = re.compile(r" *(?:([\[\]{},])|(-?(?:0|[1-9][0-9]{0,17})|[A-Za-z_][A-Za-z0-9_.]{0,127})"
                    r"(?=[ ,\]}]|: |$)|(: ))")
_END = re.compile(r"(?: +#.*)? *$")  # what may follow a value: spaces, then a comment

Line = tuple[int, int, str]  # (line number, indent, text without the indent)


class _NotInSubset(Exception):
    """The text is not in the subset: PyYAML reads it."""


def parse(text: str) -> LineMap | None:
    """The text's mapping with its lines, as PyYAML reads it; None if not in the subset."""
    if not (text.isascii() and text.replace("\n", "").isprintable()):
        return None  # a tab, a carriage return, a control or non-ASCII character
    lines: list[Line] = []
    for number, line in enumerate(text.split("\n"), start=1):
        body = line.lstrip(" ")
        if body and body[0] != "#":
            lines.append((number, len(line) - len(body), body))
    if not lines:
        return None
    reader = _Reader(lines)
    try:
        data = reader.mapping(lines[0][1])
    except (_NotInSubset, RecursionError):
        return None
    return data if reader.at == len(lines) else None


class _Reader:
    """Block structure by indents, line by line; flow collections by `_TOKEN`s."""

    def __init__(self, lines: list[Line]) -> None:
        self.lines, self.at = lines, 0

    def mapping(self, indent: int) -> LineMap:
        result = LineMap()
        result.line, result.lines = self.lines[self.at][0], {}
        while self.at < len(self.lines):
            number, at_indent, text = self.lines[self.at]
            if at_indent < indent:
                break
            match = _KEY.match(text)
            if at_indent > indent or not match:
                raise _NotInSubset
            key = match[1]
            if not _is_key(key) or key in result:
                raise _NotInSubset
            self.at += 1
            rest = match[2] or ""
            if rest and rest[0] != "#":
                result[key] = self.one_line(rest, number)
            else:
                result[key] = self.block_under(indent)
            result.lines[key] = number
        return result

    def block_under(self, indent: int) -> LineMap | LineList | None:
        """What `key:` with nothing after it holds: the lines below, or null."""
        if self.at == len(self.lines):
            return None
        _, at_indent, text = self.lines[self.at]
        is_item = _ITEM.match(text) is not None
        if at_indent > indent:
            return self.sequence(at_indent) if is_item else self.mapping(at_indent)
        if at_indent == indent and is_item:
            return self.sequence(indent)
        return None

    def sequence(self, indent: int) -> LineList:
        result = LineList()
        result.line, result.lines = self.lines[self.at][0], []
        while self.at < len(self.lines):
            number, at_indent, text = self.lines[self.at]
            match = _ITEM.match(text)
            if at_indent < indent or (at_indent == indent and not match):
                break
            if at_indent > indent or not match or not match[2] or match[2][0] == "#":
                raise _NotInSubset
            rest = match[2]
            if _KEY.match(rest):  # `- key: value`: a mapping begins on this line
                self.lines[self.at] = (number, indent + 1 + len(match[1]), rest)
                result.append(self.mapping(indent + 1 + len(match[1])))
            else:
                self.at += 1
                result.append(self.one_line(rest, number))
            result.lines.append(number)
        return result

    def one_line(self, text: str, number: int) -> object:
        """A value that ends on its line: a scalar or a flow collection."""
        value, end = _flow(text, 0, number)
        if not _END.match(text, end):
            raise _NotInSubset
        return value


def _flow(text: str, pos: int, number: int) -> tuple[object, int]:
    """The scalar or flow collection at `pos`, and where it ends."""
    token = _TOKEN.match(text, pos)
    if token is None or token[3]:
        raise _NotInSubset
    if token[2]:
        return _scalar(token[2]), token.end()
    if token[1] not in ("[", "{"):
        raise _NotInSubset
    close = "]" if token[1] == "[" else "}"
    result: LineList | LineMap = LineList() if close == "]" else LineMap()
    result.line, result.lines = number, [] if close == "]" else {}
    pos = token.end()
    token = _TOKEN.match(text, pos)
    if token is not None and token[1] == close:
        return result, token.end()
    while True:
        if isinstance(result, LineList):
            item, pos = _flow(text, pos, number)
            result.append(item)
            result.lines.append(number)
        else:
            key = _TOKEN.match(text, pos)
            colon = key and _TOKEN.match(text, key.end())
            if not key or not colon or not colon[3] or not _is_key(key[2]) or key[2] in result:
                raise _NotInSubset
            result[key[2]], pos = _flow(text, colon.end(), number)
            result.lines[key[2]] = number
        token = _TOKEN.match(text, pos)
        if token is None or token[1] not in (",", close):
            raise _NotInSubset
        if token[1] == close:
            return result, token.end()
        pos = token.end()


def _is_key(word: str | None) -> bool:
    """A word PyYAML reads as a string (not a number, true/false or null)."""
    return word is not None and word[0] not in "-0123456789" and word not in _WORDS


def _scalar(word: str) -> object:
    if word in _WORDS:
        return _WORDS[word]
    if word[0] in "-0123456789":
        return int(word)
    return word
