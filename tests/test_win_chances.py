"""The chances of winning a game as every interface gets them from the session."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

import pytest

from kismet_dice.session.win_chances import Course, WinChances, course_chart, words
from kismet_dice.strategy import Computer, StrategyTable
from kismet_dice.strategy.win import Place, final_totals, win_chances
from tests.support.futures import late_futures
from tests.support.games import late_game


def test_the_chances_are_those_of_every_players_final_totals_at_the_turns_start_and_after_a_roll(
    kismet_table: StrategyTable,
) -> None:
    game = late_game()
    futures = late_futures(kismet_table, game.sheet(0))
    chances = WinChances(Computer(table=kismet_table, futures=futures))
    found = chances.of(game)
    expected = win_chances([final_totals(futures, kismet_table, Place(game.sheet(seat))) for seat in (0, 1)])
    assert found == pytest.approx(expected, abs=1e-12)
    assert sum(found or ()) == pytest.approx(1.0)
    assert game.total(0) > game.total(1) and found is not None and found[0] > found[1]
    game.roll()  # five sixes for Ann, two rolls left
    rolled = chances.of(game)
    assert rolled is not None and rolled[0] > found[0]
    assert words(game.names, rolled).startswith(f"Chances of winning: Ann {rolled[0]:.1%}, Bob ")


def test_without_the_futures_there_are_no_chances(kismet_table: StrategyTable, tmp_path: Path) -> None:
    assert WinChances(Computer(tmp_path, table=kismet_table)).of(late_game()) is None
    assert WinChances(None).of(late_game()) is None


def test_the_course_of_a_game_is_drawn_a_line_per_player_from_the_start_to_the_last_entry() -> None:
    course = Course(("Ann", "Bob"), ((0.5, 0.5), (0.6, 0.4), (1.0, 0.0)))
    svg = ElementTree.fromstring(course_chart(course))
    lines = [part for part in svg.iter() if part.get("class") == "line"]
    assert [line.get("data-name") for line in lines] == ["Ann", "Bob"]
    # Three steps each, the last at 100% and 0%: the plot's top and bottom.
    ann, bob = ([point.split(",") for point in line.get("points", "").split()] for line in lines)
    assert len(ann) == len(bob) == 3
    assert float(ann[-1][1]) < float(ann[0][1]) < float(bob[-1][1])
