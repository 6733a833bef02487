"""The win computer player: the best chance of winning against the table as it stands."""

from __future__ import annotations

import numpy as np
import pytest
from tests.support.futures import late_futures
from tests.support.games import kismets_game, late_game

from kismet_dice.game import Score
from kismet_dice.rules import score
from kismet_dice.strategy.advisor import Advisor, position_key, raw_points
from kismet_dice.strategy.players import HardPlayer, Level
from kismet_dice.strategy.table import StrategyTable
from kismet_dice.strategy.win import Place, final_totals, option_win_chances, win_chances
from kismet_dice.strategy.win_player import WinPlayer

# Three rolls of the late game's next turn (Ann's), nothing held: the last one is what Ann enters.
LAST_ROLLS = [
    (1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 6, 6, 6, 6, 5),
    (1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 2, 2, 3, 3, 3),
    (1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 1, 2, 3, 4, 6),
    (1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 5, 5, 5, 5, 5),
]


@pytest.mark.parametrize("faces", LAST_ROLLS)
def test_with_no_roll_left_the_box_chosen_has_the_best_chance_of_winning(
    kismet_table: StrategyTable, faces: tuple[int, ...]
) -> None:
    game = late_game(faces)
    futures = late_futures(kismet_table, game.sheet(0))
    for _ in range(3):
        game.roll()
    assert game.rolls_left == 0
    options = Advisor(kismet_table).options(game.sheet(0), game.dice, 0)
    chances = option_win_chances(futures, kismet_table, game, options)
    best = max(chances)
    # The first of the best (the advisor's order: the better expected total) is the one taken.
    wanted = next(option for option, chance in zip(options, chances, strict=True) if chance >= best - 1e-9)
    chosen = WinPlayer(futures, kismet_table).choose(game)
    assert wanted.box is not None and chosen == Score(wanted.box)


def test_its_level_is_win_and_with_five_sixes_it_enters_them_as_perfect_play_does(
    kismet_table: StrategyTable,
) -> None:
    game = late_game((6, 6, 6, 6, 6))
    futures = late_futures(kismet_table, game.sheet(0))
    player = WinPlayer(futures, kismet_table)
    assert player.level is Level.WIN and Level.WIN.needs_futures
    game.roll()
    # With the opponent as the table holds it, five sixes: a Kismet, as perfect play enters it too.
    assert player.choose(game) == HardPlayer(Advisor(kismet_table)).choose(game)


@pytest.mark.parametrize("faces", LAST_ROLLS[:2])
def test_each_box_is_worth_its_chance_of_winning_as_the_advice_works_it_out(
    kismet_table: StrategyTable, faces: tuple[int, ...]
) -> None:
    game = late_game(faces)
    futures = late_futures(kismet_table, game.sheet(0))
    game.roll()
    options = [option for option in Advisor(kismet_table).options(game.sheet(0), game.dice, 2) if option.box]
    chances = option_win_chances(futures, kismet_table, game, options)
    player = WinPlayer(futures, kismet_table)
    player.choose(game)  # the chance of winning with each total, against Bob as he stands
    sheet = game.sheet(0)
    mask, total = position_key(sheet, kismet_table.rules.cap)
    worth = player.turns.endings(np.array([mask]), np.array([total]), np.array([raw_points(sheet)]))
    roll = kismet_table.rules.space.roll_index[tuple(sorted(game.dice))]
    assert len(options) == 5  # every open box
    for option, chance in zip(options, chances, strict=True):
        assert option.box is not None
        assert worth[option.box.value - 1, roll, 0] == pytest.approx(chance, abs=1e-9)


def test_a_second_kismet_is_worth_its_chance_of_winning_against_the_others_after_their_zeros(
    kismet_table: StrategyTable,
) -> None:
    game = kismets_game((4, 4, 4, 4, 4))
    futures = late_futures(kismet_table, game.sheet(0))
    game.roll()  # five fours, with Ann's Kismet box holding one: any box ends her turn on a second Kismet
    ann, bob = game.sheet(0), game.sheet(1)
    player = WinPlayer(futures, kismet_table)
    player.choose(game)
    mask, total = position_key(ann, kismet_table.rules.cap)
    worth = player.turns.endings(np.array([mask]), np.array([total]), np.array([raw_points(ann)]))
    roll = kismet_table.rules.space.roll_index[(4, 4, 4, 4, 4)]
    # Bob's top open box gets a zero (RULES.md): his final total from there.
    penalised = final_totals(futures, kismet_table, Place(bob.with_entry(bob.open_boxes[0], 0)))
    as_he_stands = final_totals(futures, kismet_table, Place(bob))
    gained = []
    for box in ann.open_boxes:
        mine = final_totals(futures, kismet_table, Place(ann.with_entry(box, score(box, game.dice))))
        chance = win_chances([mine, penalised])[0]
        assert worth[box.value - 1, roll, 0] == pytest.approx(chance, abs=1e-9)
        gained.append(chance - win_chances([mine, as_he_stands])[0])
    assert min(gained) > 0.01  # Bob's lost turn is worth something to Ann whichever box she fills
