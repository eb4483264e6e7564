"""The installed config, /etc/cashnguns/table.yaml: made once from an example (the table's
id and the service's paths set in it, its comments kept), then the builder's own file,
never overwritten; checked at every install, as `companion run` will read it."""

from __future__ import annotations

import os
import re
from pathlib import Path

from companion.config import Config, ConfigError, parse
from companion.service.layout import BROKER_DIR, BROKER_PORT, JOURNAL, STATE_DIR

EXAMPLES = Path(__file__).resolve().parents[2] / "config"  # in a clone of the repository


def from_example(example: str, table: str) -> str:
    """The example with the table's id, the service's paths and its mDNS name set."""
    text = set_key(example, None, "table", table)
    if parse(text, "example").mqtt.embedded:  # the table's own broker, under the state dir
        text = set_key(text, "mqtt", "state_dir", str(BROKER_DIR))
        text = set_key(text, "mqtt", "embedded_port", str(BROKER_PORT))
    text = set_key(text, "referee", "journal", str(JOURNAL))
    return set_key(text, "dashboard", "mdns", "true")


def set_key(text: str, section: str | None, key: str, value: str) -> str:
    """`key: value` in a top-level section (None: at the top), replacing the key's line when
    the section has one, else first in the section; a missing section is added at the end."""
    lines = text.splitlines()
    indent = "" if section is None else "  "
    if section is None:
        start, end = 0, len(lines)
    else:
        head = next((i for i, line in enumerate(lines)
                     if re.fullmatch(rf"{section}:\s*(#.*)?", line)), None)
        if head is None:
            return text.rstrip("\n") + f"\n\n{section}:\n  {key}: {value}\n"
        start = head + 1
        end = next((i for i in range(start, len(lines)) if re.match(r"\S", lines[i])
                    and not lines[i].startswith("#")), len(lines))
    for i in range(start, end):
        if re.match(rf"{indent}{key}:(\s|$)", lines[i]):
            lines[i] = f"{indent}{key}: {value}"
            return "\n".join(lines) + "\n"
    lines.insert(start, f"{indent}{key}: {value}")
    return "\n".join(lines) + "\n"


def problems(text: str, file: str) -> list[str]:
    """What stops the service from running with this config, each a sentence."""
    try:
        config = parse(text, file)
    except ConfigError as exc:
        return [f"config error: {exc}"]
    return [f"{file}: {key} {path} is outside {STATE_DIR}, the only folder the service may "
            f"write (ProtectSystem=strict): move it under {STATE_DIR}"
            for key, path in _written_paths(config) if not _under(path, STATE_DIR)]


def _written_paths(config: Config) -> list[tuple[str, Path]]:
    paths = [("referee.journal", Path(config["referee"].journal))]
    if config.mqtt.embedded:
        paths.append(("mqtt.state_dir", Path(config.mqtt.state_dir)))
    return paths


def _under(path: Path, folder: Path) -> bool:
    """Relative paths start from the service's working directory, the state folder."""
    return Path(os.path.normpath(folder / path)).is_relative_to(folder)
