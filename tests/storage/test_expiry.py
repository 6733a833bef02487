"""Unfinished web games untouched for a while expire; finished games, other owners' saved games
and the Hall of Fame stay. On both stores."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from kismet_dice.game import Game, ScriptedDice
from kismet_dice.storage import Storage
from tests.support.games import take_turn_step


def web_game(storage: Storage, table_id: str, *, finished: bool = False) -> int:
    game = Game(["Ann"], rng=random.Random(7))
    while finished and not game.is_over:
        take_turn_step(game)
    return storage.tables.create(table_id, game, ["digest"], [None]).id


def test_unfinished_web_games_saved_before_the_moment_expire_with_their_tables(storage: Storage) -> None:
    old = web_game(storage, "old")
    later = datetime.now(UTC) + timedelta(days=1)
    assert storage.tables.expire(later) == 1
    assert storage.tables.find("old") is None
    assert storage.tables.unfinished() == ()
    with pytest.raises(Exception, match="no saved game"):
        storage.games.version(old)


def test_a_game_saved_at_or_after_the_moment_stays(storage: Storage) -> None:
    web_game(storage, "fresh")
    assert storage.tables.expire(datetime.now(UTC) - timedelta(days=30)) == 0
    assert storage.tables.expire(datetime.now(UTC) - timedelta(seconds=60)) == 0
    assert storage.tables.unfinished() == ("fresh",)


def test_finished_games_terminal_games_and_the_hall_of_fame_stay(storage: Storage) -> None:
    web_game(storage, "done", finished=True)
    terminal = storage.games.start(Game(["Bob"], rng=ScriptedDice([4])))
    storage.hall.submit("Ann", 250, players=1, computer=False, assisted=False)
    web_game(storage, "old")
    assert storage.tables.expire(datetime.now(UTC) + timedelta(days=1)) == 1
    assert storage.tables.find("done") is not None
    assert storage.games.version(terminal.id) == terminal.version
    assert [entry.name for entry in storage.hall.entries()] == ["Ann"]


def test_expiring_twice_deletes_nothing_the_second_time(storage: Storage) -> None:
    web_game(storage, "old")
    later = datetime.now(UTC) + timedelta(days=1)
    assert (storage.tables.expire(later), storage.tables.expire(later)) == (1, 0)


def test_a_moment_without_a_time_zone_is_refused(storage: Storage) -> None:
    with pytest.raises(ValueError, match="time zone"):
        storage.tables.expire(datetime(2020, 1, 1))
