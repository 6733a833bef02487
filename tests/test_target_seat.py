"""A ``target`` computer at the table: it plays for the total that enters the Hall of Fame, read
from the Hall at each decision, to the end of the game.

The futures of every Kismet position take half a minute and a quarter of a gigabyte; these tests
work out those of one late position (seconds) and give them to the computer, as the stored ones would be.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from kismet_dice.cli import build_parser
from kismet_dice.cli.play import parse_seats
from kismet_dice.game import Game, Score, ScriptedDice
from kismet_dice.session import LIMITS, Seat, Session, StoreKeeper
from kismet_dice.storage import Storage
from kismet_dice.strategy import LEVELS, Advisor, Computer, ComputerPlayer, Goal, Level, StrategyTable
from kismet_dice.strategy.advisor import position_key
from kismet_dice.strategy.distribution import future_pass
from kismet_dice.strategy.players import HardPlayer
from kismet_dice.strategy.target import TargetPlayer
from kismet_dice.web.schemas import NewGameRequest

WHEN = datetime(2030, 1, 1, tzinfo=UTC)


def late_game(advisor: Advisor) -> Game:
    """Ann and Tess, both played by the hard player until Tess has four boxes open and the turn."""
    faces = random.Random(11).choices(range(1, 7), k=3000)
    game = Game(["Ann", "Tess"], rng=ScriptedDice(faces))
    hard = HardPlayer(advisor)
    while not (game.current_player == 1 and not game.dice and len(game.sheet(1).open_boxes) == 4):
        game.apply(hard.choose(game))
    return game


def test_a_target_computer_plays_for_the_hall_as_it_stands_to_the_end_of_the_game(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    advisor = Advisor(kismet_table)
    game = late_game(advisor)
    tess = game.sheet(1)
    futures = future_pass(kismet_table, position_key(tess, kismet_table.rules.cap), keep=None)
    computer = Computer(table=kismet_table, futures=futures)
    assert computer.ready_for([None, Level.TARGET])
    goal = int(advisor.start_value(tess)) + 15
    for number in range(9):
        storage.hall.submit(f"P{number}", goal + 40, players=1, computer=False, assisted=False, when=WHEN)
    storage.hall.submit("Low", goal - 1, players=1, computer=False, assisted=False, when=WHEN)
    made: list[tuple[ComputerPlayer, Goal]] = []

    def players(level: Level, goal: Goal) -> ComputerPlayer:
        made.append((computer.player(level, goal), goal))
        return made[-1][0]

    session = Session(
        game, [Seat("Ann"), Seat("Tess", Level.TARGET)], computer=players, keeper=StoreKeeper(storage)
    )
    plays_for: Callable[[int], TargetPlayer] = lambda total: TargetPlayer(futures, kismet_table, total)  # noqa: E731
    steps = 0
    while not session.game.is_over:
        if not session.is_computer_turn:
            session.roll(0)
            session.act(0, Score(session.game.sheet(0).open_boxes[0]))
            continue
        if steps == 6:
            # Another game enters meanwhile and pushes the lowest entry out: the bar rises at once.
            storage.hall.submit("Mo", 999, players=1, computer=False, assisted=False, when=WHEN)
            goal += 41
        if made:
            # The seat's player chooses what a target player of the Hall's goal chooses.
            assert made[0][0].choose(session.game) == plays_for(goal).choose(session.game)
        session.computer_step()
        assert made[0][1]() == goal and made[0][0].level is Level.TARGET
        steps += 1
    assert len(made) == 1 and steps > 6  # the goal rose mid-game
    assert session.game.sheet(1).is_full and 1 not in session.hall_prompts()


def test_the_seat_decides_as_the_target_player_of_the_hall_goal(kismet_table: StrategyTable) -> None:
    advisor = Advisor(kismet_table)
    game = late_game(advisor)
    futures = future_pass(kismet_table, position_key(game.sheet(1), kismet_table.rules.cap), keep=None)
    computer = Computer(table=kismet_table, futures=futures)
    goals = iter([0, 250, 250, 400])
    seat = computer.player(Level.TARGET, lambda: next(goals))
    game.roll()
    for goal in (0, 250, 250, 400):
        assert seat.choose(game) == TargetPlayer(futures, kismet_table, goal).choose(game)


def test_a_target_seat_needs_a_goal_and_the_futures(kismet_table: StrategyTable) -> None:
    computer = Computer(table=kismet_table)
    assert computer.ready_for([Level.HARD, None]) and not computer.ready_for([Level.TARGET])
    with pytest.raises(ValueError, match="goal"):
        computer.player(Level.TARGET)


def test_every_interface_offers_the_target_level() -> None:
    # Plain text and ``kismet play NAME=LEVEL``; ``kismet simulate --player``; the web's requests
    # and limits; the terminal's seat kinds come from the same list (tests/tui).
    assert parse_seats(["Ann", "Tess=target"])[1] == Seat("Tess", Level.TARGET)
    options = build_parser().parse_args(["simulate", "--player", "target", "--target", "300"])
    assert options.player is Level.TARGET and options.target == 300
    request = NewGameRequest.model_validate(
        {"players": [{"name": "Ann"}, {"name": "Tess", "computer": "target"}]}
    )
    assert request.players[1].computer is Level.TARGET
    assert Level.TARGET in LEVELS and Level.TARGET in LIMITS.levels
