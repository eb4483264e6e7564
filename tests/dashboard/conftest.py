"""Browser fixtures: Debian's Chromium driven by Playwright, pages that fail on JS errors.

`browser` is tests/conftest.py's; `live` is a whole simulated table
(tests/dashboard/stack.py) on the session's Mosquitto; `open_page` opens a page at tablet or
phone size in its own browser context (its own cookies), and the test fails if that page
logged a console error or threw.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from served import serve  # noqa: F401  (the fixture, for test_streams and test_connections)
from stack import start_live_table

from companion.runner import Running

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "dashboard"
SIZES = {"tablet": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def live(request, tmp_path, mosquitto) -> Iterator[Running]:
    """A live simulated table; `@pytest.mark.guns(8)` gives it guns at seats 1 to 8."""
    guns = request.node.get_closest_marker("guns")
    table = start_live_table(tmp_path, mosquitto.url, **(
        {"seats": tuple(range(1, guns.args[0] + 1))} if guns else {}))
    try:
        yield table
    finally:
        table.stop()


class PageErrors:
    """Console errors and warnings and uncaught exceptions of one page, as text; a test
    that breaks the network on purpose names the browser's message it expects."""

    def __init__(self, expected: tuple[str, ...]) -> None:
        self.errors: list[str] = []
        self.expected = expected

    def console(self, message) -> None:
        if message.type in ("error", "warning") and not any(
                e in message.text for e in self.expected):
            self.errors.append(f"console {message.type}: {message.text}")

    def watch(self, page) -> None:
        page.on("console", self.console)
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))


@pytest.fixture
def open_page(browser, live) -> Iterator[Callable[..., object]]:
    """`open_page(path, size="tablet", lang="en")`: a page of the live table, loaded."""
    contexts, watchers = [], []

    def open_(path: str, size: str = "tablet", lang: str = "en",
              expected_errors: tuple[str, ...] = ()):
        context = browser.new_context(viewport=SIZES[size], locale=lang,
                                      extra_http_headers={"Accept-Language": lang})
        contexts.append(context)
        page = context.new_page()
        errors = PageErrors(expected_errors)
        errors.watch(page)
        watchers.append((path, errors))
        page.set_default_timeout(10_000)
        page.goto(live.url + path)
        return page

    yield open_
    for context in contexts:
        context.close()
    failed = [f"{path}: {e}" for path, w in watchers for e in w.errors]
    assert not failed, "JS errors on pages:\n" + "\n".join(failed)


@pytest.fixture
def screenshot() -> Callable[[object, str], Path]:
    """Save a page's screenshot under tests/artifacts/dashboard/ (git-ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def save(page, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(path), full_page=False)
        return path

    return save
