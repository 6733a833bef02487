"""The game saver of the plain table: saves as the game goes, and a failing disk does not end the game."""

from __future__ import annotations

import random

import pytest

from kismet_dice.cli.saving import GameSaver
from kismet_dice.game import Game
from kismet_dice.storage import Storage
from tests.storage.gameplay import take_turn_step


def test_the_first_action_creates_the_saved_game_and_later_ones_update_it(storage: Storage) -> None:
    saver = GameSaver(storage)
    game = Game(["Ann"], rng=random.Random(3))
    assert storage.games.unfinished().games == ()
    for _ in range(4):
        take_turn_step(game)
        saver(game)
    [listed] = storage.games.unfinished().games
    assert saver.saved == listed
    assert storage.games.load(listed.id)[1].to_json() == game.to_json()


def test_a_save_that_fails_warns_once_and_the_game_goes_on(
    storage: Storage, capsys: pytest.CaptureFixture[str]
) -> None:
    saver = GameSaver(storage)
    game = Game(["Ann"], rng=random.Random(4))
    take_turn_step(game)
    saver(game)
    storage.close()  # from here on every write fails, as on a disk that went away
    for _ in range(3):
        take_turn_step(game)
        saver(game)
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    assert "no longer saved" in err
    assert str(storage.path) in err
