"""Fixtures for the firmware tests: the MicroPython unix port and the board file paths."""

import pytest
from firmware_harness import MicroPython


@pytest.fixture(scope="session")
def micropython():
    return MicroPython()
