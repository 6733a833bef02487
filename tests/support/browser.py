"""The web app served by uvicorn on 127.0.0.1 in a background thread, and Debian's Chromium to drive it."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Error,
    Page,
    ViewportSize,
    expect,
    sync_playwright,
)

from kismet_dice.strategy import Computer
from kismet_dice.web import create_app
from kismet_dice.web.guard import Protections
from tests.support.server import serving

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / ("docs" if os.environ.get("KISMET_SCREENSHOT") == "docs" else "build")
"""Where the tests keep their screenshots: build/, or docs/ (the README's copies) with
``KISMET_SCREENSHOT=docs``."""

CHROMIUM = "/usr/lib/chromium/chromium-headless-shell"
"""Debian's build of Chromium's headless shell (package chromium-headless-shell): the same engine as
its ``chromium``, without the desktop browser around it, and what Playwright itself runs headless.
The browser test files took 52.7 and 57.7 core-seconds with it on the 2-core machine, against 72.9
and 79.6 with the desktop browser (one after another, in one process). The binary itself, not the
script in /usr/bin that starts it: a browser Playwright has to kill would leave the script's child
running."""
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

DESKTOP = ViewportSize(width=1280, height=720)
"""A page's screen unless a test says otherwise (Playwright's own default)."""

Scheme = Literal["light", "dark"]


class Pages:
    """Chromium's pages for the tests of one file, each page used again by the tests after it.

    A page opened afresh (its context, its renderer process, its first frame) cost Chromium 1.47 s of
    processor time to show the lobby on the 2-core machine, one already open and sent to the next
    test's address 0.6 s: the browser files took 94.6 core-seconds one after another, against
    120.5-121.9 with a page opened for each person of each test. :meth:`new_page` and
    :meth:`phone` lend a page, each in a context of its own (a person's cookies are their own); the
    ``browser`` fixture gives them back at the test's end (:meth:`give_back`), emptied as a new
    page is: the other pages of its context closed, what each origin it showed stored and its
    cookies and permissions cleared (a later test's server may get the same port), the media it
    emulates, its pointer and its listeners (:meth:`errors`) taken back, and a blank page shown. A
    context a test changes in other ways (scripts added to every page, options of its own) is made
    with :meth:`new_context` and closed at the test's end."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self._idle: dict[tuple[Scheme, bool], list[Page]] = {}
        self._lent: list[tuple[tuple[Scheme, bool], Page]] = []
        self._shown: dict[BrowserContext, set[str]] = {}
        self._listeners: list[tuple[Page, Callable[[Error], None], Callable[[ConsoleMessage], None]]] = []
        self._contexts: list[BrowserContext] = []

    def new_page(self, viewport: ViewportSize = DESKTOP, color_scheme: Scheme = "light") -> Page:
        """A page on a desktop screen of ``viewport``."""
        return self._lend((color_scheme, False), viewport)

    def phone(self, scheme: Scheme = "light") -> Page:
        """A page on a phone (its screen, touch, a mobile viewport); ``page.context.new_page()`` opens
        another on the same phone."""
        return self._lend((scheme, True), PHONE)

    def new_context(self, **options: Any) -> BrowserContext:
        """A context of the test's own, with Playwright's ``options``, closed at the test's end."""
        context = self.browser.new_context(**options)
        self._contexts.append(context)
        return context

    def errors(self, page: Page) -> list[str]:
        """What goes wrong on ``page`` until the test's end: its uncaught errors, and each script,
        style or connection its Content Security Policy blocks (which Chromium tells on the console)."""
        found: list[str] = []

        def error(thrown: Error) -> None:
            found.append(str(thrown))

        def console(message: ConsoleMessage) -> None:
            if "Content Security Policy" in message.text:
                found.append(message.text)

        page.on("pageerror", error)
        page.on("console", console)
        self._listeners.append((page, error, console))
        return found

    def _lend(self, key: tuple[Scheme, bool], viewport: ViewportSize) -> Page:
        idle = self._idle.setdefault(key, [])
        if idle:
            page = idle.pop()
            if page.viewport_size != viewport:
                page.set_viewport_size(viewport)
        else:
            scheme, on_phone = key
            context = self.browser.new_context(
                viewport=viewport, color_scheme=scheme, is_mobile=on_phone, has_touch=on_phone
            )
            shown = self._shown.setdefault(context, set())
            context.on("page", lambda opened: opened.on("framenavigated", lambda frame: shown.add(frame.url)))
            page = context.new_page()
        self._lent.append((key, page))
        return page

    def give_back(self) -> None:
        """Every page lent since the last call is emptied and kept for the next test (or closed, with
        its context, if the test closed it); every context of the test's own is closed."""
        for page, error, console in self._listeners:
            page.remove_listener("pageerror", error)
            page.remove_listener("console", console)
        self._listeners.clear()
        for context in self._contexts:
            context.close()
        self._contexts.clear()
        for key, page in self._lent:
            if not page.is_closed():
                try:
                    self._empty(page, key[0])
                except Error:  # a page that cannot be emptied (one that crashed, say) is not lent again
                    pass
                else:
                    self._idle[key].append(page)
                    continue
            self._shown.pop(page.context, None)
            with suppress(Error):
                page.context.close()
        self._lent.clear()

    def _empty(self, page: Page, scheme: Scheme) -> None:
        """``page`` as a new one is: alone in its context, blank, with nothing stored."""
        context = page.context
        for other in context.pages:
            if other != page:
                other.close()
        page.goto("about:blank")
        session = context.new_cdp_session(page)
        for origin in {_origin(url) for url in self._shown[context]} - {None}:
            session.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        session.detach()
        self._shown[context].clear()
        context.clear_cookies()
        context.clear_permissions()
        page.emulate_media(media="null", color_scheme=scheme, reduced_motion="null", forced_colors="null")
        page.mouse.move(-1, -1)  # off the page: nothing the next test shows is under it


def _origin(url: str) -> str | None:
    """The origin of a page's address (None for one with no storage of its own, about:blank)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else None


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
