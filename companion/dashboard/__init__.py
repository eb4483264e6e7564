"""The tablet dashboard: the table view, the Godfather's controls, phones, live updates.

Pages, scripts, styles and translations live in `companion/web/`, shipped with the package.
"""

from pathlib import Path

WEB_DIR = Path(__file__).resolve().parents[1] / "web"
