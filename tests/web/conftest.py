"""Fixtures of the web tests: a two-seat game on a temporary app, and the computer (the Kismet
table solved once per test run, never solved again)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kismet_dice.strategy import Computer, StrategyTable
from kismet_dice.strategy.distribution import Distribution
from tests.support.browser import Pages, chromium
from tests.support.web import QueuedDice, client, new_game


@pytest.fixture(scope="module")
def chromium_pages() -> Iterator[Pages]:
    """Debian's Chromium, started once for the tests of a file that drive it, and its pages."""
    with chromium() as browser:
        yield Pages(browser)


@pytest.fixture
def browser(chromium_pages: Pages) -> Iterator[Pages]:
    """The file's pages, each one lent given back at the test's end (:class:`Pages`)."""
    yield chromium_pages
    chromium_pages.give_back()


@pytest.fixture
def computer(kismet_table: StrategyTable, kismet_distribution: Distribution) -> Computer:
    # With perfect play's distribution: the end of a game has it at once, as on a server that
    # worked it out before (each test's home stores none).
    return Computer(table=kismet_table, perfect=kismet_distribution)


@pytest.fixture
def dice() -> QueuedDice:
    # Roll-off: Ann 6, Bob 2, so Ann begins.
    return QueuedDice(6, 2)


@pytest.fixture
def web(tmp_path: Path, dice: QueuedDice) -> Iterator[TestClient]:
    with client(tmp_path, dice) as started:
        yield started


@pytest.fixture
def game(web: TestClient) -> dict[str, Any]:
    return new_game(web, "Ann", "Bob")
