"""Where an installed companion lives: one place for the install, the unit and the doctor.

Every path is the one on the Pi; `Layout.on_disk` puts it under another root (the install
into a temporary folder in the tests, or into an SD card image being prepared).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

USER = "cashnguns"  # the service's own unprivileged user, and its group
UNIT = "cashnguns.service"
PREFIX = Path("/opt/cashnguns")  # the program's own virtual environment
CONFIG_DIR = Path("/etc/cashnguns")
CONFIG = CONFIG_DIR / "table.yaml"
STATE_DIR = Path("/var/lib/cashnguns")  # the journal and the broker's files: all it writes
JOURNAL = STATE_DIR / "journal.sqlite3"
BROKER_DIR = STATE_DIR / "broker"
BROKER_PORT = 1884  # Debian's own mosquitto.service may hold 1883
UNIT_FILE = Path("/etc/systemd/system") / UNIT
# The groups that open the devices: GPIO chips and memory (gpio, on Raspberry Pi OS),
# serial ports such as the hub's /dev/ttyACM0 (dialout), the I2C buses (i2c: the guns' IMUs
# read by the Pi).
DEVICE_GROUPS = ("gpio", "dialout", "i2c")
# config_dir and state_dir: (mode, owner user, owner group); None is root
MODES = {CONFIG_DIR: (0o750, None, USER), CONFIG: (0o640, None, USER),
         STATE_DIR: (0o700, USER, USER)}


@dataclass(frozen=True)
class Layout:
    root: Path = Path("/")

    def on_disk(self, path: Path) -> Path:
        return self.root / path.relative_to("/")

    @property
    def live(self) -> bool:
        """The system itself, booted with systemd: services can be started here."""
        return self.root == Path("/") and Path("/run/systemd/system").is_dir()
