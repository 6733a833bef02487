"""The computer at the table: players of every level and advice from one table loaded on need."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kismet_dice.game import Game, Roll, Score, ScriptedDice
from kismet_dice.rules import Box
from kismet_dice.strategy import Computer, Level, StrategyTable, kernel
from kismet_dice.strategy.dice_space import FloatArray, IntArray
from kismet_dice.strategy.distribution import Distribution, distribution_path
from kismet_dice.strategy.table import save, table_path


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


def test_perfect_play_is_worked_out_once_with_progress_then_loaded_from_the_store(
    kismet_table: StrategyTable, kismet_distribution: Distribution, tmp_path: Path
) -> None:
    steps: list[tuple[int, int]] = []
    first = Computer(tmp_path, table=kismet_table)
    worked_out = first.perfect_play(lambda done, total: steps.append((done, total)))
    # The same numbers as the distribution worked out for the whole run, to the bit.
    assert worked_out.offset == kismet_distribution.offset
    assert np.array_equal(worked_out.probabilities, kismet_distribution.probabilities)
    done = [step[0] for step in steps]
    assert len(steps) > 10 and done == sorted(done) and steps[-1][0] == steps[-1][1]
    assert distribution_path(kismet_table.rules, tmp_path).exists()
    assert first.perfect_play() is worked_out  # kept, not worked out again
    # Another process on the machine (here, another computer) loads it: no progress to show.
    steps.clear()
    again = Computer(tmp_path, table=kismet_table)
    loaded = again.perfect_play(lambda done, total: steps.append((done, total)))
    assert steps == [] and np.array_equal(loaded.probabilities, worked_out.probabilities)


def test_getting_ready_works_out_the_first_turn_so_a_first_move_compiles_nothing(
    kismet_table: StrategyTable, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first time on a machine, the first turn compiles the turn's loops: done while the
    # interface says the computer is getting ready, not in its first move (on a server, within
    # the store's deadline).
    save(kismet_table, table_path(kismet_table.rules, tmp_path))
    asked: list[tuple[int, int]] = []
    real = kernel.turn

    def turn(tables: kernel.TurnTables, values: FloatArray, masks: IntArray, totals: IntArray) -> kernel.Turn:
        asked.extend(zip(masks.tolist(), totals.tolist(), strict=True))
        return real(tables, values, masks, totals)

    monkeypatch.setattr(kernel, "turn", turn)
    computer = Computer(tmp_path)
    computer.prepare([Level.HARD])
    assert asked == [(0, 0)]
    game = Game(["Bot"], rng=ScriptedDice([1, 6, 6, 6, 6, 5]))
    game.roll()
    assert game.dice == (6, 6, 6, 6, 5)
    assert computer.player("hard").choose(game) == Roll((0, 1, 2, 3))  # the four sixes kept
    assert asked == [(0, 0)]  # the turn it worked out, remembered
