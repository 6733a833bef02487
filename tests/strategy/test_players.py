"""Computer players in the engine, the fast simulator against the engine, and proficiency."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kismet_dice.game import Game, Roll, Score, ScriptedDice
from kismet_dice.rules import Box
from kismet_dice.strategy.advisor import Advisor
from kismet_dice.strategy.players import HardPlayer, computer_player
from kismet_dice.strategy.proficiency import proficiency
from kismet_dice.strategy.simulate import play_hard, run, summarise
from kismet_dice.strategy.table import StrategyTable


@pytest.fixture(scope="module")
def advisor(kismet_table: StrategyTable) -> Advisor:
    return Advisor(kismet_table)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_level_finishes_a_three_player_game_legally(level: str, advisor: Advisor) -> None:
    players = [computer_player(level, advisor) for _ in range(3)]
    game = Game(["A", "B", "C"], rng=random.Random(11))
    while not game.is_over:
        action = players[game.current_player or 0].choose(game)
        assert action in game.legal_actions()
        game.apply(action)
    assert all(game.sheet(seat).is_full for seat in range(3))


def test_hard_takes_a_kismet_it_rolls(advisor: Advisor) -> None:
    game = Game(["Hal"], rng=ScriptedDice([3, 4, 4, 4, 4, 4]))
    player = HardPlayer(advisor)
    assert player.choose(game) == Roll()
    game.roll()
    assert player.choose(game) == Score(Box.KISMET)


def test_the_fast_simulator_plays_the_hard_players_moves(
    kismet_table: StrategyTable, advisor: Advisor
) -> None:
    drawn: list[list[int]] = []
    played = play_hard(kismet_table, 6, np.random.default_rng(5), drawn=drawn)
    assert len(drawn) == 6
    # Keeping the dice changes nothing of the games.
    assert (play_hard(kismet_table, 6, np.random.default_rng(5)).entries == played.entries).all()
    player = HardPlayer(advisor)
    for index, faces in enumerate(drawn):
        game = Game(["Hal"], rng=ScriptedDice([1, *faces]))  # one die for the roll-off
        while not game.is_over:
            game.apply(player.choose(game))
        assert [game.sheet(0)[box] for box in Box] == played.entries[index].tolist()
        assert game.total(0) == played.totals[index]


def test_hard_play_loses_nothing_and_a_wasted_kismet_loses_much(advisor: Advisor) -> None:
    hard = HardPlayer(advisor)
    game = Game(["Hal"], rng=random.Random(2))
    for _ in range(12):
        game.apply(hard.choose(game))
    assert proficiency(game, advisor).total_loss(0) == pytest.approx(0.0, abs=1e-9)

    wasteful = Game(["Ann"], rng=ScriptedDice([1, 5, 5, 5, 5, 5]))
    wasteful.roll()
    wasteful.score(Box.ONES)
    (decision,) = proficiency(wasteful, advisor).decisions
    best = advisor.best(wasteful.sheet(0).__class__(), (5, 5, 5, 5, 5), 2)
    assert decision.best == best
    assert decision.loss == pytest.approx(best.expected - advisor.start_value(wasteful.sheet(0)), abs=1e-9)
    assert decision.loss > 50


def test_easy_and_medium_give_points_away_over_a_game(advisor: Advisor) -> None:
    for level in ("easy", "medium"):
        player = computer_player(level)
        game = Game(["Pat"], rng=random.Random(8))
        while not game.is_over:
            game.apply(player.choose(game))
        report = proficiency(game, advisor)
        assert all(d.loss >= 0 for d in report.decisions)
        assert report.total_loss(0) > 0


def test_ten_thousand_hard_games_average_the_solvers_value(kismet_table: StrategyTable) -> None:
    played = run("hard", 10_000, seed=2024, table=kismet_table)
    summary = summarise("hard", played)
    assert summary.games == 10_000
    assert abs(summary.mean - kismet_table.expected_score) <= 3 * summary.standard_error
    assert sum(summary.bonus_frequency.values()) == pytest.approx(1.0)


def test_a_seed_repeats_the_games() -> None:
    first = run("medium", 30, seed=7, processes=1).entries
    assert np.array_equal(first, run("medium", 30, seed=7, processes=2).entries)
