"""The computer at the table: players of every level and advice from one table loaded on need."""

from __future__ import annotations

from kismet_dice.game import Game, Roll, Score, ScriptedDice
from kismet_dice.rules import Box
from kismet_dice.strategy import Computer, StrategyTable


def test_easy_and_medium_need_no_table() -> None:
    computer = Computer()
    for level in ("easy", "medium"):
        assert computer.player(level).level == level
    assert not computer.ready


def test_the_hard_player_and_the_advice_share_the_loaded_table(kismet_table: StrategyTable) -> None:
    computer = Computer(table=kismet_table)
    assert computer.ready
    game = Game(["Bot"], rng=ScriptedDice([1, 6, 6, 6, 6, 6]))
    game.roll()
    hard = computer.player("hard")
    # Five sixes on the first roll of an empty sheet: nothing beats the Kismet box.
    assert hard.choose(game) == Score(Box.KISMET)
    assert computer.advisor().game_options(game)[0].box is Box.KISMET
    assert hard.choose(game) != Roll(())
