"""The web app served by uvicorn on 127.0.0.1 in a background thread, and Debian's Chromium to drive it."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Browser, Page, ViewportSize, expect, sync_playwright

from kismet_dice.strategy import Computer
from kismet_dice.web import create_app
from kismet_dice.web.guard import Protections
from tests.support.server import serving

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / ("docs" if os.environ.get("KISMET_SCREENSHOT") == "docs" else "build")
"""Where the tests keep their screenshots: build/, or docs/ (the README's copies) with
``KISMET_SCREENSHOT=docs``."""

CHROMIUM = "/usr/bin/chromium"
# Without these, Chromium's own background connections hang on a closed network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def served(
    home: Path, seed: int, computer: Computer, protections: Protections | None = None
) -> Iterator[str]:
    """The app on a free port of 127.0.0.1, with repeatable dice, computer players moving without
    a pause, and ``protections`` (a public site's by default); yields its address."""
    app = create_app(home, random.Random(seed), computer=computer, pace=0, protections=protections)
    with serving(app) as address:
        yield address


PHONE = ViewportSize(width=390, height=844)
"""The phone screen the tests lay the table out on."""


@contextmanager
def phone(browser: Browser, scheme: Literal["light", "dark"] = "light") -> Iterator[Page]:
    """A page on a phone (its screen, touch, a mobile viewport) in a context of its own, closed after;
    ``page.context.new_page()`` opens another on the same phone."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, color_scheme=scheme)
    try:
        yield context.new_page()
    finally:
        context.close()


@contextmanager
def chromium() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def serious(page: Page) -> list[str]:
    """What axe finds on the page that is serious or critical, one line each."""
    results = Axe().run(page)
    return [
        f"{violation['id']}: {violation['help']}"
        for violation in results.response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]


def start(page: Page, address: str, *names: str) -> None:
    """Set up a game of people ``names`` from the lobby, and wait for its live table."""
    page.goto(address + "/")
    page.fill(".seat-name", names[0])
    for index, name in enumerate(names[1:], start=1):
        page.click("#add-seat")
        page.locator(".seat-name").nth(index).fill(name)
    page.click("#start")
    expect(page.locator("body")).to_have_attribute("data-live", "yes")
    expect(page.locator("#sheet")).to_be_visible()


def animations_ended(page: Page, seconds: float = 10.0) -> None:
    """Wait until no animation of the page is running. Asked from the test, one evaluation at a
    time: Playwright's wait_for_function polls by evaluating a string in the page, which the
    page's Content Security Policy (no 'unsafe-eval') refuses."""
    for _ in range(int(seconds * 20)):
        if page.evaluate("document.getAnimations().every((a) => a.playState !== 'running')"):
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the page's animations were still running after {seconds} s")
