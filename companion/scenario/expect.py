"""Checking a replay's output against a scenario's `expect` block."""

from __future__ import annotations

from collections import Counter

TYPE_CHECKING = False  # (typing is not imported to run: a replay starts faster without it)
if TYPE_CHECKING:
    from typing import Any

_MISSING = object()


def lookup(output: dict[str, Any], path: str) -> Any:
    """Follow a dotted path; `players.NAME` picks a player by name."""
    value: Any = output
    parts = path.split(".")
    i = 0
    while i < len(parts):
        part = parts[i]
        if isinstance(value, dict) and part in value:
            value = value[part]
            if part == "players" and i + 1 < len(parts):
                name = parts[i + 1]
                value = next((p for p in value if p["name"] == name), _MISSING)
                i += 1
        else:
            return _MISSING
        if value is _MISSING:
            return _MISSING
        i += 1
    return value


def _same(got: Any, want: Any) -> bool:
    """Equal, with lists as multisets and no True == 1 confusion."""
    if isinstance(want, list) and isinstance(got, list):
        return Counter(map(repr, got)) == Counter(map(repr, want))
    if isinstance(got, bool) or isinstance(want, bool):
        return got is want
    return got == want


def mismatches(output: dict[str, Any], exit_code: int, expect: dict[str, Any]) -> list[str]:
    """Every expectation that does not hold, in plain words; empty when all hold."""
    out = []
    for path, want in expect.items():
        got = exit_code if path == "exit" else lookup(output, str(path))
        if got is _MISSING:
            out.append(f"{path}: not in the output (expected {want!r})")
        elif not _same(got, want):
            out.append(f"{path}: got {got!r}, expected {want!r}")
    if "exit" not in expect and exit_code != 0:
        out.append(f"exit: got {exit_code}, expected 0")
    return out
