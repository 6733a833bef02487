"""The session: seats, the held dice, the assisted mark, and keeping the game after every action."""

from __future__ import annotations

import random

import pytest

from kismet_dice.game import Game, ScriptedDice
from kismet_dice.rules import Box, IllegalAction
from kismet_dice.session import GameKeeper, Seat, Session, Setup, resume
from kismet_dice.storage import Storage
from kismet_dice.strategy import Computer
from tests.storage.gameplay import take_turn_step


def session_of(game: Game, *levels: str | None) -> Session:
    seats = [
        Seat(name, level) for name, level in zip(game.names, levels or [None] * len(game.names), strict=True)
    ]
    return Session(game, seats, computer=Computer().player)


def test_the_first_action_creates_the_saved_game_and_later_ones_update_it(storage: Storage) -> None:
    keeper = GameKeeper(storage)
    game = Game(["Ann"], rng=random.Random(3))
    assert storage.games.unfinished().games == ()
    for _ in range(4):
        take_turn_step(game)
        keeper.keep(game)
    [listed] = storage.games.unfinished().games
    assert keeper.saved == listed
    assert storage.games.load(listed.id)[1].to_json() == game.to_json()


def test_a_save_that_fails_is_told_once_and_the_game_goes_on(storage: Storage) -> None:
    keeper = GameKeeper(storage)
    game = Game(["Ann"], rng=random.Random(4))
    take_turn_step(game)
    keeper.keep(game)
    storage.close()  # from here on every write fails, as on a disk that went away
    for _ in range(3):
        take_turn_step(game)
        keeper.keep(game)
    assert keeper.problem is not None
    assert "no longer saved" in keeper.problem and str(storage.path) in keeper.problem


def test_a_session_saves_its_computer_levels_and_assisted_mark(storage: Storage) -> None:
    keeper = GameKeeper(storage)
    setup = Setup((Seat("Ann"), Seat("Cid", "easy")))
    session = Session.new(
        setup, computer=Computer().player, rng=ScriptedDice([6, 1, 1, 2, 3, 4, 5]), after_action=keeper
    )
    session.roll()
    session.mark_assisted()
    [saved] = storage.games.unfinished().games
    assert saved.levels == (None, "easy") and saved.assisted
    resumed, _ = resume(storage, saved.id, computer=Computer().player)
    assert resumed.seats == session.seats and resumed.assisted
    assert resumed.game.to_json() == session.game.to_json()


def test_holds_are_the_persons_until_the_turn_ends() -> None:
    session = session_of(Game(["Ann"], rng=ScriptedDice([1, 1, 2, 3, 4, 5, 6, 6])))
    with pytest.raises(IllegalAction, match="roll first"):
        session.toggle_hold(0)
    session.roll()
    session.toggle_hold(0)
    session.toggle_hold(4)
    session.toggle_hold(4)
    assert session.hold == {0}
    session.set_hold([0, 1, 2])
    assert session.roll() == (1, 2, 3, 6, 6)
    assert session.hold == {0, 1, 2}  # kept dice stay held for the next roll
    session.score(Box.SIXES)
    assert session.hold == frozenset()


def test_a_computer_seat_plays_its_own_turns_only() -> None:
    session = session_of(Game(["Ann", "Cid"], rng=ScriptedDice([1, 6, 6, 6, 6, 6, 6])), None, "easy")
    assert session.is_computer_turn
    with pytest.raises(IllegalAction):
        session_of(Game(["Ann"], rng=ScriptedDice([1]))).computer_step()
    session.computer_step()  # rolls five sixes
    session.computer_step()  # an easy player takes the Kismet
    assert session.game.sheet(1)[Box.KISMET] == 80
    assert not session.is_computer_turn


@pytest.mark.parametrize(
    ("seats", "message"),
    [((), "1 to 6"), ((Seat("A"),) * 7, "1 to 6"), ((Seat("A"), Seat("A")), "share"),
     ((Seat("A", "expert"),), "easy, medium or hard"), ((Seat(" "),), "empty")],
)  # fmt: skip
def test_a_bad_set_up_says_what_is_wrong(seats: tuple[Seat, ...], message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        Setup(seats).checked()


def test_a_set_up_survives_json_and_bad_json_is_refused() -> None:
    setup = Setup((Seat("Ann"), Seat("Hal", "hard"))).checked()
    assert Setup.from_json(setup.to_json()) == setup
    for text in (
        "",
        "[]",
        '{"seats": 3}',
        '{"seats": [{"name": "A", "level": "god"}], "zero_kismet_counts": 0}',
    ):
        with pytest.raises(IllegalAction):
            Setup.from_json(text)
