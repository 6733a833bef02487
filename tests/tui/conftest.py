"""The terminal game's tests drive it with Textual's pilot, which after every key it presses waits
until the process looks idle (``textual._wait.wait_for_idle``): a window of sleep in which the
process used almost no processor time. Textual's window is 20 ms, a little longer than its frame
(a screen draws what changed at most 60 times a second), so every key costs at least 40 ms however
little it does, and these tests press thousands. Here both are shorter, in the same order: a
window longer than a frame, so that no drawing is still due when the process looks idle.

Both are Textual's module constants, read where they are used (Textual is pinned to a minor
version in pyproject.toml); a test that needs a drawing done waits for it, as it would anyway."""

from __future__ import annotations

import pytest
import textual._wait
import textual.screen

WINDOW = 0.006
"""The idle test's window, in seconds: many times a scheduler's tick, so a process at work is not
taken for an idle one. Textual's share of it (1/20) stays the idle threshold."""

FRAME = 0.004
"""How often a screen may draw, in seconds (Textual's 1/60 s): shorter than the window."""


@pytest.fixture(autouse=True)
def quick_pilot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", WINDOW)
    monkeypatch.setattr(textual._wait, "SLEEP_IDLE", WINDOW / 20)
    monkeypatch.setattr(textual.screen, "UPDATE_PERIOD", FRAME)
