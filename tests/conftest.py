"""Every test gets its own empty KISMET_HOME: no test reads or writes the person's real data,
and no saved game of one test is offered to another."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kismet_dice.storage import Storage


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh data directory (not yet created), set as KISMET_HOME."""
    directory = tmp_path / "kismet-home"
    monkeypatch.setenv("KISMET_HOME", str(directory))
    return directory


@pytest.fixture
def storage(home: Path) -> Iterator[Storage]:
    with Storage.open() as opened:
        yield opened
