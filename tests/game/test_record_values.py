"""Records as values: encoding is stable, decoding checks the form, the engine replays and copies games."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kismet_dice import Box, Game, RecordError
from kismet_dice.game import HouseRules, Record, Roll, Rolled, RollOff, Scored, ScriptedDice, ScriptExhausted

from .test_illegal_actions import snapshot
from .test_records import base, played

# A record as this program has always written it: stored games must keep loading, and
# saving them again must not change a byte. A tied roll-off, a hold, a house rule, two entries.
STORED = (
    '{"format":"kismet-dice game","version":1,"players":["Ann","Bob"],'
    '"house_rules":{"zero_kismet_counts":true},"roll_off":[[[0,4],[1,4]],[[0,2],[1,5]]],'
    '"actions":[{"seat":1,"roll":[],"dice":[1,2,3,4,5]},{"seat":1,"roll":[1,2,3,4],"dice":[6,2,3,4,5]},'
    '{"seat":1,"score":"STRAIGHT","points":30},{"seat":0,"roll":[],"dice":[6,6,6,6,6]},'
    '{"seat":0,"score":"KISMET","points":80}]}'
)
STORED_FACES = [4, 4, 2, 5, 1, 2, 3, 4, 5, 6, 6, 6, 6, 6, 6]


def test_a_stored_record_decodes_to_the_engine_events() -> None:
    record = Record.from_json(STORED)
    assert record == Record(
        players=("Ann", "Bob"),
        house_rules=HouseRules(zero_kismet_counts=True),
        roll_off=(RollOff(((0, 4), (1, 4))), RollOff(((0, 2), (1, 5)))),
        actions=(
            Rolled(1, (), (1, 2, 3, 4, 5)),
            Rolled(1, (1, 2, 3, 4), (6, 2, 3, 4, 5)),
            Scored(1, Box.STRAIGHT, 30, (6, 2, 3, 4, 5)),
            Rolled(0, (), (6, 6, 6, 6, 6)),
            Scored(0, Box.KISMET, 80, (6, 6, 6, 6, 6)),
        ),
    )
    assert record.faces() == STORED_FACES


def test_a_stored_record_encodes_again_byte_for_byte() -> None:
    assert Record.from_json(STORED).to_json() == STORED
    assert Record.from_json(STORED.encode()).to_json() == STORED
    assert Game.from_json(STORED).to_json() == STORED


def test_a_game_played_on_the_stored_dice_writes_the_stored_record() -> None:
    game = Game(
        ["Ann", "Bob"], rng=ScriptedDice(STORED_FACES), house_rules=HouseRules(zero_kismet_counts=True)
    )
    game.roll()
    game.roll([1, 2, 3, 4])
    game.score(Box.STRAIGHT)
    game.roll()
    game.score(Box.KISMET)
    assert game.to_json() == STORED
    assert game.record() == Record.from_json(STORED)


@given(st.integers(0, 10_000), st.integers(1, 4), st.integers(0, 400))
@settings(max_examples=25, deadline=None)
def test_a_game_record_survives_its_json_and_replays_to_the_same_game(
    seed: int, players: int, actions: int
) -> None:
    game = played(seed, players, actions)
    record = Record.from_json(game.to_json())
    assert record == game.record()
    replayed = Game.from_record(record)
    assert snapshot(replayed) == snapshot(game)
    assert replayed.history == game.history


def test_the_record_lists_every_die_the_game_drew_in_order() -> None:
    faces = [2, 5, 1, 2, 3, 4, 5, 6, 5, 5, 5, 5, 1]
    game = Game(["Ann", "Bob"], rng=ScriptedDice(faces))
    game.roll()
    game.roll([1, 2, 3, 4])
    game.score(Box.STRAIGHT)
    game.roll()
    assert game.record().faces() == faces


def test_a_replay_draws_nothing_from_the_new_dice_source_until_play_goes_on() -> None:
    later = ScriptedDice([6, 6])
    game = Game.from_record(base().record(), rng=later)
    assert later.remaining == 2
    assert game.roll([0, 1, 2]) == (5, 5, 5, 6, 6)
    assert later.remaining == 0


def test_a_scripted_source_continues_with_its_successor_and_counts_those_dice() -> None:
    dice = ScriptedDice([1, 2], then=ScriptedDice([3]))
    assert [dice.randint(1, 6) for _ in range(3)] == [1, 2, 3]
    assert (dice.remaining, dice.drawn_from_then) == (0, 1)
    with pytest.raises(ScriptExhausted):
        dice.randint(1, 6)
    assert dice.drawn_from_then == 1


def record_of(text: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(text)
    return record


HEAD = '{"format":"kismet-dice game","version":1,'
NO_HOUSE_RULES = '"house_rules":{"zero_kismet_counts":false},'


@pytest.mark.parametrize("rng", [None, ScriptedDice([])], ids=["system dice", "an empty script"])
def test_a_roll_off_that_never_settles_is_refused(rng: ScriptedDice | None) -> None:
    text = HEAD + '"players":["Ann","Bob"],' + NO_HOUSE_RULES + '"roll_off":[[[0,4],[1,4]]],"actions":[]}'
    with pytest.raises(RecordError) as refused:
        Game.from_json(text, rng=rng)
    assert str(refused.value) == "the record's roll-off does not settle a first player"


def test_a_record_with_a_die_the_game_never_drew_is_refused() -> None:
    # One player wins the roll-off at once; a second round holds a die the game never rolls,
    # though the roll after it reads the same.
    text = (
        HEAD
        + '"players":["Ann"],'
        + NO_HOUSE_RULES
        + '"roll_off":[[[0,3]],[[0,5]]],"actions":[{"seat":0,"roll":[],"dice":[5,5,5,5,5]}]}'
    )
    with pytest.raises(RecordError) as refused:
        Game.from_json(text)
    assert str(refused.value) == "the record's roll-off does not match its dice"


def tamper_points(record: dict[str, Any]) -> None:
    record["actions"][2]["points"] = 35


def tamper_seat(record: dict[str, Any]) -> None:
    record["actions"][3]["seat"] = 1


def tamper_held_die(record: dict[str, Any]) -> None:
    record["actions"][1]["dice"][1] = 4


def tamper_impossible_face(record: dict[str, Any]) -> None:
    record["actions"][3]["dice"][4] = 7


def tamper_box(record: dict[str, Any]) -> None:
    record["actions"][2]["score"] = "CHANCE"


def tamper_hold(record: dict[str, Any]) -> None:
    record["actions"][1]["roll"] = [1, 1]


def tamper_hold_kind(record: dict[str, Any]) -> None:
    record["actions"][1]["roll"] = ["1"]


def tamper_names(record: dict[str, Any]) -> None:
    record["players"] = ["Ann", 2]


def tamper_seat_kind(record: dict[str, Any]) -> None:
    record["actions"][0]["seat"] = True


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (tamper_points, "action 3: STRAIGHT scores 30 with those dice, not 35"),
        (tamper_seat, "action 4 is by seat 1, but it was seat 0's turn"),
        (tamper_held_die, "action 2: the held dice do not match the dice before the roll"),
        (tamper_impossible_face, "the record holds a die that no die shows: the dice generator gave 7"),
        (tamper_box, "action 3: no box is called 'CHANCE'"),
        (tamper_hold, "the record breaks the rules: each die can be held only once"),
        (tamper_hold_kind, "action 2: 'roll' should list dice positions, not ['1']"),
        (tamper_names, "the record: 'players' should be a list of names, not ['Ann', 2]"),
        (tamper_seat_kind, "action 1: 'seat' should be int, not True"),
    ],
)
def test_a_refused_record_says_what_is_wrong(tamper: Any, message: str) -> None:
    record = record_of(base().to_json())
    tamper(record)
    with pytest.raises(RecordError) as refused:
        Game.from_json(json.dumps(record))
    assert str(refused.value).startswith(message)


def test_a_copy_takes_an_action_and_leaves_the_original_as_it_was() -> None:
    game = base()
    before = snapshot(game)
    trial = game.copy()
    assert snapshot(trial) == before
    assert trial.score(Box.FOUR_OF_A_KIND) == 46
    assert snapshot(game) == before and game.history != trial.history
    assert trial.sheet(0)[Box.FOUR_OF_A_KIND] == 46 and game.sheet(0)[Box.FOUR_OF_A_KIND] is None
    assert trial.current_player == 1 and game.current_player == 0


def test_a_copy_shares_the_dice_source() -> None:
    dice = ScriptedDice([3, 1, 2, 3, 4, 5, 6, 6, 6, 6, 6])
    game = Game(["Ann"], rng=dice)
    game.copy().roll()
    assert game.roll() == (6, 6, 6, 6, 6)
    assert dice.remaining == 0


@given(st.integers(0, 10_000), st.integers(1, 4), st.integers(0, 200), st.integers(0, 200))
@settings(max_examples=25, deadline=None)
def test_a_game_carried_on_by_a_longer_record_is_the_game_that_record_replays_to(
    seed: int, players: int, held: int, more: int
) -> None:
    ahead = played(seed, players, held + more)
    behind = Game.from_record(Record(ahead.names, ahead.house_rules, ahead.record().roll_off, ()))
    behind = behind.continued(_first(ahead.record(), held))
    before = snapshot(behind)
    caught_up = behind.continued(ahead.record(), rng=ScriptedDice([]))
    assert snapshot(caught_up) == snapshot(ahead)
    assert caught_up.history == ahead.history
    assert snapshot(behind) == before  # the game carried on is a new one


@given(st.integers(0, 10_000), st.integers(1, 4), st.integers(0, 200), st.integers(0, 200))
@settings(max_examples=25, deadline=None)
def test_a_game_carried_on_by_a_longer_records_json_reads_only_what_follows_its_own(
    seed: int, players: int, held: int, more: int
) -> None:
    ahead = played(seed, players, held + more)
    behind = Game.from_record(_first(ahead.record(), held), rng=ScriptedDice([]))
    before = snapshot(behind)
    caught_up = behind.continued_json(ahead.to_json(), rng=ScriptedDice([]))
    assert caught_up is not None
    assert snapshot(caught_up) == snapshot(ahead)
    assert caught_up.history == ahead.history
    assert caught_up.to_json() == ahead.to_json() == ahead.record().to_json()
    assert snapshot(behind) == before  # the game carried on is a new one


def test_a_json_record_that_does_not_begin_with_the_games_own_is_left_to_be_read_whole() -> None:
    game = base()
    ahead = game.copy()
    ahead.score(Box.FOUR_OF_A_KIND)
    # Another game, and the same game written otherwise (spaces): not read from the middle.
    other = Game(["Ann", "Cy"], rng=ScriptedDice([2, 5]))
    assert game.continued_json(other.to_json()) is None
    spaced = json.dumps(json.loads(ahead.to_json()))
    assert game.continued_json(spaced) is None
    assert snapshot(game.continued(Record.from_json(spaced))) == snapshot(ahead)


def test_added_actions_that_break_the_rules_or_the_format_are_refused_and_change_nothing() -> None:
    game = base()
    before = snapshot(game)
    ahead = game.copy()
    ahead.score(Box.FOUR_OF_A_KIND)
    written = ahead.to_json()
    with pytest.raises(RecordError, match="action 5: FOUR_OF_A_KIND scores 46 with those dice, not 50"):
        game.continued_json(written.replace('"points":46', '"points":50'))
    with pytest.raises(RecordError, match="action 5: no box is called 'FIVE_OF_A_KIND'"):
        game.continued_json(written.replace('"FOUR_OF_A_KIND"', '"FIVE_OF_A_KIND"'))
    with pytest.raises(RecordError, match="not JSON"):
        game.continued_json(written.replace('"points":46}', '"points":46'))
    assert snapshot(game) == before


def _first(record: Record, count: int) -> Record:
    return replace(record, actions=record.actions[:count])


def test_a_record_that_does_not_continue_the_game_is_refused_and_changes_nothing() -> None:
    game = base()
    before = snapshot(game)
    other = Game(["Ann", "Bob"], rng=ScriptedDice([2, 5, 6, 6, 6, 6, 6]))
    other.roll()
    with pytest.raises(RecordError, match="does not continue this game"):
        game.continued(other.record())
    with pytest.raises(RecordError, match="does not continue this game"):
        game.continued(Game(["Ann", "Cy"], rng=ScriptedDice([2, 5])).record())
    assert snapshot(game) == before


def test_a_continuing_record_that_breaks_the_rules_is_refused() -> None:
    game = base()
    ahead = game.copy()
    ahead.score(Box.FOUR_OF_A_KIND)
    record = ahead.record()
    claimed = record.actions[-1]
    assert isinstance(claimed, Scored)
    wrong = replace(record, actions=(*record.actions[:-1], replace(claimed, points=50)))
    with pytest.raises(RecordError, match="scores 46 with those dice, not 50"):
        game.continued(wrong)


@given(st.integers(0, 10_000), st.integers(1, 4))
@settings(max_examples=15, deadline=None)
def test_a_game_written_after_every_action_writes_its_records_json(seed: int, players: int) -> None:
    rng = random.Random(seed)
    game = Game([f"P{n}" for n in range(players)], rng=rng)
    while not game.is_over:
        trial = game.copy()  # a copy shares what was written and goes on from there
        trial.apply(rng.choice(trial.legal_actions()))
        assert trial.to_json() == trial.record().to_json()
        if rng.random() < 0.5:
            game = trial
        assert game.to_json() == game.record().to_json()
    assert Game.from_json(game.to_json()).to_json() == game.to_json()


@given(st.integers(0, 10_000), st.integers(1, 4), st.integers(0, 300))
@settings(max_examples=25, deadline=None)
def test_may_roll_and_may_hold_say_what_the_legal_actions_hold(seed: int, players: int, actions: int) -> None:
    game = played(seed, players, actions)
    rolls = [action for action in game.legal_actions() if isinstance(action, Roll)]
    assert game.may_roll == bool(rolls)
    assert game.may_hold == any(action.hold for action in rolls)
