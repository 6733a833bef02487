"""The Kismet table, solved once per test session into a temporary cache."""

from __future__ import annotations

import pytest

from kismet_dice.strategy.ruleset import kismet_rules
from kismet_dice.strategy.table import StrategyTable, load_or_solve


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
