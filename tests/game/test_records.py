"""Games saved to JSON load back to the identical state; tampered records are refused."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kismet_dice import Box, Game, RecordError
from kismet_dice.game import ScriptedDice

from .test_illegal_actions import snapshot


def played(seed: int, players: int = 3, actions: int = 200) -> Game:
    rng = random.Random(seed)
    game = Game([f"P{n}" for n in range(players)], rng=rng)
    for _ in range(actions):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(rng.choice(legal))
    return game


@given(st.integers(0, 10_000), st.integers(1, 4), st.integers(0, 400))
@settings(max_examples=40, deadline=None)
def test_round_trip_gives_the_identical_state(seed: int, players: int, actions: int) -> None:
    game = played(seed, players, actions)
    loaded = Game.from_json(game.to_json())
    assert snapshot(loaded) == snapshot(game)
    assert loaded.history == game.history
    assert loaded.names == game.names and loaded.winners == game.winners


def test_a_loaded_game_plays_on_with_the_new_dice_source() -> None:
    game = Game(["Ann"], rng=ScriptedDice([3, 1, 2, 3, 4, 5]))
    game.roll()
    loaded = Game.from_json(game.to_json(), rng=ScriptedDice([6, 6]))
    assert loaded.roll([0, 1, 2]) == (1, 2, 3, 6, 6)


def record_of(game: Game) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(game.to_json())
    return record


def base() -> Game:
    game = Game(["Ann", "Bob"], rng=ScriptedDice([2, 5, 1, 2, 3, 4, 5, 6, 5, 5, 5, 5, 1]))
    game.roll()
    assert game.roll([1, 2, 3, 4]) == (6, 2, 3, 4, 5)  # Bob re-rolls the 1
    assert game.score(Box.STRAIGHT) == 30
    game.roll()  # Ann: 5-5-5-5-1
    return game


def tamper_die(record: dict[str, Any]) -> None:
    record["actions"][0]["dice"][2] = 6  # a die Bob then held


def tamper_held_die(record: dict[str, Any]) -> None:
    record["actions"][1]["dice"][1] = 4


def tamper_points(record: dict[str, Any]) -> None:
    record["actions"][2]["points"] = 35


def tamper_box(record: dict[str, Any]) -> None:
    record["actions"][2]["score"] = "KISMET"


def tamper_seat(record: dict[str, Any]) -> None:
    record["actions"][3]["seat"] = 1


def tamper_roll_off(record: dict[str, Any]) -> None:
    record["roll_off"][0][1][1] = 1  # Bob's 5 becomes a 1: Ann would have begun


def tamper_impossible_face(record: dict[str, Any]) -> None:
    record["actions"][3]["dice"][4] = 7


def tamper_fourth_roll(record: dict[str, Any]) -> None:
    extra = {"seat": 0, "roll": [], "dice": [1, 1, 1, 1, 1]}
    record["actions"][3:] = [record["actions"][3], extra, extra, extra]


def tamper_unknown_box(record: dict[str, Any]) -> None:
    record["actions"][2]["score"] = "CHANCE"


def tamper_version(record: dict[str, Any]) -> None:
    record["version"] = 99


def tamper_players(record: dict[str, Any]) -> None:
    record["players"] = ["Ann"]


def tamper_action_kind(record: dict[str, Any]) -> None:
    record["actions"][0] = {"seat": 1, "pass": True}


@pytest.mark.parametrize(
    "tamper",
    [tamper_die, tamper_held_die, tamper_points, tamper_box, tamper_seat, tamper_roll_off,
     tamper_impossible_face, tamper_fourth_roll, tamper_unknown_box, tamper_version,
     tamper_players, tamper_action_kind],
)  # fmt: skip
def test_a_tampered_record_is_refused(tamper: Any) -> None:
    record = record_of(base())
    Game.from_json(json.dumps(record))  # untouched, it loads
    tamper(record)
    with pytest.raises(RecordError):
        Game.from_json(json.dumps(record))


@pytest.mark.parametrize("text", ["", "not json", "[]", "{}", '{"format": "other"}', "null", b"\xff\xfe"])
def test_what_is_not_a_record_is_refused(text: str | bytes) -> None:
    with pytest.raises(RecordError):
        Game.from_json(text)


def test_record_error_is_a_value_error() -> None:
    assert issubclass(RecordError, ValueError)
