"""Every test that touches storage gets its own KISMET_HOME, never the person's real data."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kismet_dice.storage import Storage


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, empty data directory, set as KISMET_HOME."""
    directory = tmp_path / "kismet-home"
    monkeypatch.setenv("KISMET_HOME", str(directory))
    return directory


@pytest.fixture
def storage(home: Path) -> Iterator[Storage]:
    with Storage.open() as opened:
        yield opened
