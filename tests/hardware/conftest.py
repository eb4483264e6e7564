"""hardware/ is a folder of scripts, not a package: put it on the path for its tests."""

import sys

from hardware_dir import HARDWARE

sys.path.insert(0, str(HARDWARE))
