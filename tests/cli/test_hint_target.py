"""``kismet hint --target T``: the chances of playing for T where the target player's futures are
stored (any sheet, at once), else those of perfect play, saying which kind is shown."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kismet_dice.cli import main
from kismet_dice.rules import Box, Sheet
from kismet_dice.strategy import Advisor, StrategyTable
from kismet_dice.strategy.chances import Continuations, target_options
from kismet_dice.strategy.table import table_path
from kismet_dice.strategy.target import TargetTurns
from tests.support.futures import store_late_futures

FILLED = {"ONES": 3, "TWOS": 6, "THREES": 9, "FOURS": 12, "FIVES": 15, "SIXES": 18, "FLUSH": 35}
FILLED.update(dict.fromkeys(("TWO_PAIR_SAME_COLOR", "THREE_OF_A_KIND", "STRAIGHT", "FULL_HOUSE"), 0))
DICE = (2, 3, 4, 5, 5)


def late_sheet() -> Sheet:
    sheet = Sheet()
    for name, points in FILLED.items():
        sheet = sheet.with_entry(Box[name], points)
    return sheet


def hint(capsys: pytest.CaptureFixture[str], target: int, *more: str) -> str:
    filled = ",".join(f"{name}={points}" for name, points in FILLED.items())
    dice = [str(die) for die in DICE]
    argv = ["hint", "--dice", *dice, "--rolls-left", "2", "--filled", filled, "--target", str(target), *more]
    assert main(argv) == 0
    return capsys.readouterr().out


@pytest.fixture
def own_home(kismet_table: StrategyTable, kismet_home: str, home: Path) -> Path:
    """A ``KISMET_HOME`` of this test's own (the autouse ``home``) holding the session's table, so
    futures stored there are seen by no other test."""
    tables = home / "tables"
    tables.mkdir(parents=True)
    os.symlink(
        table_path(kismet_table.rules, Path(kismet_home) / "tables"), table_path(kismet_table.rules, tables)
    )
    return tables


def test_with_the_futures_stored_the_chances_are_those_of_playing_for_the_target(
    capsys: pytest.CaptureFixture[str], kismet_table: StrategyTable, own_home: Path
) -> None:
    sheet = late_sheet()
    advisor = Advisor(kismet_table)
    target = round(sheet.total + advisor.start_value(sheet)) + 10
    futures = store_late_futures(kismet_table, sheet, own_home)
    wanted = target_options(TargetTurns(futures, kismet_table, target), sheet, DICE, 2, advisor)
    out = hint(capsys, target)
    assert f"Chances of {target} or more playing this turn for it (as --player target does)" in out
    chances = [found.chance for found in wanted]
    best = chances.index(max(chances))
    lines = out.splitlines()[2 : 2 + len(wanted)]
    for rank, (line, found) in enumerate(zip(lines, wanted, strict=True)):
        assert line.split()[:2] == [f"{found.option.expected:.3f}", f"{found.chance:.2%}"]
        assert line.endswith("(best chance)") == (rank == best)
    listed = json.loads(hint(capsys, target, "--json"))
    assert [item["chance"] for item in listed] == pytest.approx(chances, abs=1e-12)
    assert {item["play"] for item in listed} == {"target"}


def test_without_the_futures_the_chances_are_perfect_plays_and_it_says_how_to_get_the_others(
    capsys: pytest.CaptureFixture[str], kismet_table: StrategyTable, own_home: Path
) -> None:
    sheet = late_sheet()
    advisor = Advisor(kismet_table)
    target = round(sheet.total + advisor.start_value(sheet)) + 10
    wanted = Continuations(kismet_table, sheet).options(DICE, 2, target, advisor)
    out = hint(capsys, target)
    assert f"Chances of {target} or more playing perfectly (for the expected total)." in out
    assert f"kismet simulate --player target --target {target} --games 1" in out
    first = out.splitlines()[2]
    assert first.split()[:2] == [f"{wanted[0].option.expected:.3f}", f"{wanted[0].chance:.2%}"]
    listed = json.loads(hint(capsys, target, "--json"))
    assert [item["chance"] for item in listed] == pytest.approx([found.chance for found in wanted], abs=1e-12)
    assert {item["play"] for item in listed} == {"hard"}
