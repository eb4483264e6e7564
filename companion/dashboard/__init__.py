"""The tablet dashboard: the table view, the Godfather's controls, phones, live updates.

Pages, scripts, styles and translations live in the repository's top-level `web/`,
installed with the package as `companion.web`.
"""

from pathlib import Path

import companion.web

WEB_DIR = Path(companion.web.__file__).resolve().parent
