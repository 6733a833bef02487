"""The finished games statistics are read from, on both stores."""

from __future__ import annotations

from kismet_dice import Game
from kismet_dice.game import ScriptedDice
from kismet_dice.session.statistics import REPLAYS, statistics
from kismet_dice.storage import Storage
from tests.support.stats import TOP_DOWN, store_game, total


def test_only_finished_games_are_read_in_the_order_they_ended(storage: Storage) -> None:
    first = store_game(storage, [("Ann", [6, 6, 6, 6, 5], TOP_DOWN)])
    unfinished = storage.games.start(Game(["Cy"], rng=ScriptedDice([6])))
    second = store_game(
        storage,
        [("Bob", [5, 5, 5, 4, 4], TOP_DOWN), ("Hal", [1, 1, 2, 2, 3], TOP_DOWN)],
        levels=[None, "easy"],
    )
    store_game(storage, [("Ann", [1, 1, 2, 2, 3], TOP_DOWN)], assisted=True)
    found = storage.finished.all()
    assert unfinished.id not in [game.id for game in found]
    assert [game.levels for game in found] == [(None,), (None, "easy"), (None,)]
    assert [game.assisted for game in found] == [False, False, True]
    assert [Game.from_json(game.record).names for game in found] == [("Ann",), ("Bob", "Hal"), ("Ann",)]
    figures = statistics(found, computers=True)
    assert [(p.name, p.games, p.assisted, p.totals) for p in figures.players] == [
        ("Ann", 1, 1, (total(first[0]),)),
        ("Bob", 1, 0, (total(second[0]),)),
        ("Hal", 1, 0, (total(second[1]),)),
    ]


def test_an_empty_store_has_no_finished_games(storage: Storage) -> None:
    assert storage.finished.all() == ()
    assert statistics(storage.finished.all()).players == ()


def test_statistics_drawn_again_replay_only_the_games_that_ended_since(storage: Storage) -> None:
    store_game(storage, [("Ann", [6, 6, 6, 6, 5], TOP_DOWN)])
    store_game(storage, [("Bob", [5, 5, 5, 4, 4], TOP_DOWN)], assisted=True)
    REPLAYS.clear()
    first = statistics(storage.finished.all())
    assert REPLAYS.replays == 2
    store_game(storage, [("Ann", [1, 1, 2, 2, 3], TOP_DOWN)])
    again = statistics(storage.finished.all())
    assert (REPLAYS.replays, REPLAYS.reused) == (3, 2)
    # What is kept is the same whichever game asks: the assisted mark is each stored game's own.
    assert [(p.name, p.games, p.assisted) for p in first.players] == [("Ann", 1, 0), ("Bob", 0, 1)]
    assert [(p.name, p.games, p.assisted) for p in again.players] == [("Ann", 2, 0), ("Bob", 0, 1)]
