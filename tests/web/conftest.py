"""The computer for web tests: the Kismet table solved once per test run, never solved again."""

from __future__ import annotations

import pytest

from kismet_dice.strategy import Computer, StrategyTable


@pytest.fixture
def computer(kismet_table: StrategyTable) -> Computer:
    return Computer(table=kismet_table)
