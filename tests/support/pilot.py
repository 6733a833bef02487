"""Waiting in the terminal game's tests for what a key leads to, when it takes more than one step."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from textual.pilot import Pilot
from textual.screen import Screen

S = TypeVar("S", bound=Screen[Any])

PATIENCE = 10.0
"""Seconds to wait for a screen before the test fails: far beyond what a step takes, even on a
loaded machine."""


async def shown(pilot: Pilot[Any], kind: type[S]) -> S:
    """The screen of ``kind`` the app shows, once it shows one.

    After a key or a click the pilot waits until the process looks idle; a screen opened from
    another screen's mount (the roll-off, from a new table) may come after that on a machine whose
    other processes kept this one from running during the pilot's window.
    """
    deadline = time.monotonic() + PATIENCE
    while not isinstance(pilot.app.screen, kind):
        assert time.monotonic() < deadline, f"no {kind.__name__} after {PATIENCE:.0f} s: {pilot.app.screen}"
        await pilot.pause(0.02)
    screen: S = pilot.app.screen
    return screen


async def until(pilot: Pilot[Any], condition: Callable[[], bool], what: str) -> None:
    """Wait until ``condition()`` holds: for work the app does in a thread of its own."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, f"not {what} after {PATIENCE:.0f} s"
        await pilot.pause(0.02)
