"""Every illegal action raises IllegalAction, says what was wrong, and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kismet_dice import Box, Game, IllegalAction
from kismet_dice.game import ScriptedDice


def snapshot(game: Game) -> tuple[object, ...]:
    return (
        game.to_json(),
        game.dice,
        game.rolls_left,
        game.current_player,
        game.round,
        game.leader,
        tuple(game.sheet(seat) for seat in range(len(game.names))),
    )


def fresh() -> Game:
    return Game(["Ann", "Bob"], rng=ScriptedDice([6, 1] + [1, 2, 3, 4, 5] * 40))


def after_one_roll() -> Game:
    game = fresh()
    game.roll()
    return game


def after_three_rolls() -> Game:
    game = after_one_roll()
    game.roll([0])
    game.roll([0, 1])
    return game


def with_straight_filled() -> Game:
    game = after_one_roll()
    game.score(Box.STRAIGHT)  # Ann's Straight
    game.roll()
    game.score(Box.ONES)  # Bob's Ones
    game.roll()
    return game


def finished() -> Game:
    game = Game(["Solo"], rng=ScriptedDice([1] + [1, 2, 3, 4, 5] * 15))
    for box in Box:
        game.roll()
        game.score(box)
    return game


# Some calls are ill-typed on purpose (their ignores say so): the engine must refuse what an
# untyped caller, such as a JSON client, sends it.
CASES: list[tuple[str, Callable[[], Game], Callable[[Game], object], str]] = [
    ("fourth roll", after_three_rolls, lambda g: g.roll([0]), "no rolls are left"),
    ("score before rolling", fresh, lambda g: g.score(Box.ONES), "roll the dice"),
    ("filled box", with_straight_filled, lambda g: g.score(Box.STRAIGHT), "already filled"),
    ("position 5", after_one_roll, lambda g: g.roll([5]), "position is 0 to 4"),
    ("position -1", after_one_roll, lambda g: g.roll([-1]), "position is 0 to 4"),
    ("position text", after_one_roll, lambda g: g.roll(["1"]), "position is 0 to 4"),  # type: ignore[list-item]
    ("position bool", after_one_roll, lambda g: g.roll([True]), "position is 0 to 4"),
    ("held twice", after_one_roll, lambda g: g.roll([1, 1]), "only once"),
    ("hold a string", after_one_roll, lambda g: g.roll("12"), "positions"),  # type: ignore[arg-type]
    ("hold not a list", after_one_roll, lambda g: g.roll(3), "positions"),  # type: ignore[arg-type]
    ("hold all five", after_one_roll, lambda g: g.roll([0, 1, 2, 3, 4]), "choose a box"),
    ("hold on first roll", fresh, lambda g: g.roll([0]), "first roll"),
    ("roll after the end", finished, lambda g: g.roll(), "over"),
    ("score after the end", finished, lambda g: g.score(Box.ONES), "over"),
    ("score a number", after_one_roll, lambda g: g.score(3), "not a box"),  # type: ignore[arg-type]
    ("score an unknown name", after_one_roll, lambda g: g.score("Chance"), "no box"),
    ("apply a non-action", after_one_roll, lambda g: g.apply("roll"), "not an action"),  # type: ignore[arg-type]
    ("seat out of range", after_one_roll, lambda g: g.sheet(2), "no seat"),
]


@pytest.mark.parametrize(("setup", "action", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_illegal_action_changes_nothing(
    setup: Callable[[], Game], action: Callable[[Game], object], message: str
) -> None:
    game = setup()
    before = snapshot(game)
    with pytest.raises(IllegalAction, match=message):
        action(game)
    assert snapshot(game) == before


def test_illegal_action_is_a_value_error() -> None:
    assert issubclass(IllegalAction, ValueError)


def test_a_failing_dice_source_leaves_the_game_as_it_was() -> None:
    game = Game(["Ann"], rng=ScriptedDice([1, 2, 3, 4, 5, 6, 9]))
    game.roll()
    before = snapshot(game)
    with pytest.raises(ValueError, match="no die shows"):
        game.roll([0, 1, 2])  # the second new die would be a 9
    assert snapshot(game) == before


@pytest.mark.parametrize(
    ("names", "message"),
    [([], "at least one"), (["Ann", "Ann"], "share"), ([""], "empty"), (["x" * 25], "at most 24"),
     (["A\tB"], "control"), (["A\u2028B"], "plain spaces"), (["A\u00a0B"], "plain spaces"),
     ("Ann", "list of names"), ([3], "text")],
)  # fmt: skip
def test_bad_players_are_refused(names: object, message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        Game(names, rng=ScriptedDice([1, 2]))  # type: ignore[arg-type]


def test_names_are_trimmed() -> None:
    assert Game(["  Ann  "], rng=ScriptedDice([1])).names == ("Ann",)


def test_legal_actions_are_exactly_the_ones_apply_accepts() -> None:
    game = fresh()
    assert len(game.legal_actions()) == 1  # only the first roll
    game.roll()
    actions = game.legal_actions()
    assert len(actions) == 31 + 15  # every hold but all five, then every open box
    for action in actions:
        probe = Game.from_json(game.to_json(), rng=ScriptedDice([1, 2, 3, 4, 5]))
        probe.apply(action)
