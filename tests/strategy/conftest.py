"""The Kismet table, solved once per test session into a temporary cache."""

from __future__ import annotations

import pytest

from kismet_dice.strategy.ruleset import kismet_rules
from kismet_dice.strategy.table import StrategyTable, load_or_solve


@pytest.fixture(scope="session")
def kismet_home(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("kismet-home"))


@pytest.fixture(scope="session")
def kismet_table(kismet_home: str) -> StrategyTable:
    from pathlib import Path

    return load_or_solve(kismet_rules(), directory=Path(kismet_home) / "tables")
