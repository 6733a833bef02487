"""Every test gets its own empty KISMET_HOME: no test reads or writes the person's real data,
and no saved game of one test is offered to another."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kismet_dice.storage import Storage
from kismet_dice.strategy.ruleset import kismet_rules
from kismet_dice.strategy.table import StrategyTable, load_or_solve


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


# The Kismet table, solved once per test session into a temporary cache.
def solved_home(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, StrategyTable]:
    """A ``KISMET_HOME`` holding the solved table; any test directory asking again gets the same one."""
    home = tmp_path_factory.getbasetemp() / "kismet-home"
    return str(home), load_or_solve(kismet_rules(), directory=home / "tables")


@pytest.fixture(scope="session")
def kismet_home(kismet_table: StrategyTable, tmp_path_factory: pytest.TempPathFactory) -> str:
    return solved_home(tmp_path_factory)[0]


@pytest.fixture(scope="session")
def kismet_table(tmp_path_factory: pytest.TempPathFactory) -> StrategyTable:
    return solved_home(tmp_path_factory)[1]
