"""``kismet chances --win``: each player's chance of winning from the sheets of a game."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kismet_dice.cli import main
from kismet_dice.rules import Box, Sheet
from kismet_dice.strategy import StrategyTable
from kismet_dice.strategy.stored_futures import load_futures
from kismet_dice.strategy.table import table_path
from kismet_dice.strategy.win import MODEL, Place, final_totals, win_chances
from tests.support.futures import store_late_futures

BASIC = {"ONES": 3, "TWOS": 6, "THREES": 9, "FOURS": 12, "FIVES": 15, "SIXES": 18}
AHEAD = {**BASIC, "TWO_PAIR_SAME_COLOR": 20, "THREE_OF_A_KIND": 24, "STRAIGHT": 30, "FLUSH": 35}
BEHIND = {**BASIC, "TWO_PAIR_SAME_COLOR": 0, "THREE_OF_A_KIND": 18, "STRAIGHT": 30, "FLUSH": 0}


def sheet_of(filled: dict[str, int]) -> Sheet:
    sheet = Sheet()
    for name, points in filled.items():
        sheet = sheet.with_entry(Box[name], points)
    return sheet


def written(filled: dict[str, int]) -> str:
    return ",".join(f"{name}={points}" for name, points in filled.items())


@pytest.fixture
def own_home(kismet_table: StrategyTable, kismet_home: str, home: Path) -> Path:
    """A ``KISMET_HOME`` of this test's own holding the session's table and the futures of the
    positions the sheets below lead to (both sheets share their filled boxes and Basic total)."""
    tables = home / "tables"
    tables.mkdir(parents=True)
    os.symlink(
        table_path(kismet_table.rules, Path(kismet_home) / "tables"), table_path(kismet_table.rules, tables)
    )
    store_late_futures(kismet_table, sheet_of(AHEAD), tables)
    return tables


def test_each_players_chance_of_winning_is_told_with_what_the_model_assumes(
    capsys: pytest.CaptureFixture[str], kismet_table: StrategyTable, own_home: Path
) -> None:
    argv = ["chances", "--win", "--sheet", written(BEHIND), "--sheet", written(AHEAD)]
    argv += ["--dice", "6", "6", "6", "6", "2", "--rolls-left", "1"]
    assert main([*argv, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    chances = [player["win_chance"] for player in answer["players"]]
    assert answer["model"] == MODEL
    assert sum(chances) == pytest.approx(1.0)
    # The player behind has four sixes to play with; the library's chance from the same places.
    futures = load_futures(kismet_table, own_home)
    assert futures is not None
    places = [Place(sheet_of(BEHIND), (6, 6, 6, 6, 2), 1), Place(sheet_of(AHEAD))]
    expected = win_chances([final_totals(futures, kismet_table, place) for place in places])
    assert chances == pytest.approx(expected, abs=1e-12)
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == MODEL
    assert lines[1] == f"Player 1 (sheet total 146, to play with 6 6 6 6 2 and 1 roll left): {chances[0]:.2%}"
    assert lines[2] == f"Player 2 (sheet total 207): {chances[1]:.2%}"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--sheet", "ONES=3"], "give each player's sheet with --sheet, at least two"),
        (
            ["--sheet", "", "--sheet", "", "--dice", "1", "2", "3", "4", "5", "--rolls-left", "3"],
            "rolls left",
        ),
    ],
)
def test_a_question_that_cannot_be_answered_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["chances", "--win", *argv]) != 0
    assert message in capsys.readouterr().err
