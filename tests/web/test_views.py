"""The sheets, the turn and the events sent at every action are written as JSON directly: byte
for byte what the schema writes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kismet_dice.rules import Box
from kismet_dice.session import Seat, Session, Told, narration
from kismet_dice.session.tables import Table
from kismet_dice.strategy import ComputerPlayer, Goal, Level
from kismet_dice.web.schemas import BoxView, ComputerState, ComputerTask, EventView, PlayerView, TurnView
from kismet_dice.web.views import event_fields, event_json, player_json, turn_fields, turn_json
from tests.support.games import random_game, second_kismet_game

NAMES = ("Ann", 'Zoë "the Dice" Ölund', "李雷", "Bo\\b")


def player_view(table: Table, seat: int) -> PlayerView:
    """A seat's sheet built through the schema, field by field: what player_json must write."""
    game = table.session.game
    sheet = game.sheet(seat)
    options = game.options() if seat == game.current_player else {}
    return PlayerView(
        seat=seat,
        name=game.names[seat],
        computer=table.session.seats[seat].level,
        described=table.session.seats[seat].describe(),
        sheet=[BoxView(box=box, label=box.label, points=sheet[box], option=options.get(box)) for box in Box],
        basic_total=sheet.basic_total,
        bonus=sheet.bonus,
        points_to_next_bonus=sheet.points_to_next_bonus,
        kismet_total=sheet.kismet_total,
        total=sheet.total,
    )


def event_view(told: Told) -> EventView:
    """An event built through the schema: what event_json must write."""
    return EventView.model_validate(event_fields(told))


def no_moves(level: Level, goal: Goal) -> ComputerPlayer:
    raise AssertionError("no computer moves here")


@given(st.integers(0, 10_000), st.integers(1, 4), st.integers(0, 300))
@settings(max_examples=30, deadline=None)
def test_a_sheet_written_directly_is_the_schemas_json_of_it(seed: int, players: int, actions: int) -> None:
    game = random_game(seed, players, actions, NAMES)
    levels = [None, Level.HARD, None, Level.EASY][:players]
    seats = [Seat(name, level) for name, level in zip(game.names, levels, strict=True)]
    table = Table("t", Session(game, seats, computer=no_moves), [""] * players)
    for seat in range(players):
        assert player_json(table, seat) == player_view(table, seat).model_dump_json()


@given(
    st.integers(0, 10_000),
    st.integers(1, 4),
    st.integers(0, 300),
    st.sampled_from(["not_loaded", "getting_ready", "ready", "unavailable"]),
    st.sampled_from([None, "strategy", "futures"]),
    st.none() | st.floats(0, 1),
)
@settings(max_examples=40, deadline=None)
def test_a_turn_written_in_one_call_is_the_schemas_json_of_it(
    seed: int,
    players: int,
    actions: int,
    computer: ComputerState,
    task: ComputerTask | None,
    done: float | None,
) -> None:
    game = random_game(seed, players, actions, NAMES)
    table = Table("t", Session(game, [Seat(name) for name in game.names]), [""] * players)
    problem = "the table could not be loaded"
    written = turn_json(table, computer, problem, task, done)
    schema = TurnView.model_validate(turn_fields(table, computer, problem, task, done))
    assert written == schema.model_dump_json()


@given(st.integers(0, 10_000), st.integers(1, 4), st.integers(0, 300))
@settings(max_examples=25, deadline=None)
def test_an_event_written_in_one_call_is_the_schemas_json_of_it(
    seed: int, players: int, actions: int
) -> None:
    game = random_game(seed, players, actions, NAMES)
    for told in (*narration.story(game), *narration.story(second_kismet_game())):
        assert event_json(told) == event_view(told).model_dump_json()
