"""The session: seats, holds that travel with the roll, the assisted mark, keeping the game after
every change under both policies, and Hall of Fame prompts checked again after each entry."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kismet_dice.game import Game, Roll, Score, ScriptedDice
from kismet_dice.rules import Box, IllegalAction
from kismet_dice.session import (
    BadSetup,
    NotYourTurn,
    Policy,
    Seat,
    Session,
    Setup,
    StoreKeeper,
    Unsaved,
    local_session,
    narration,
    resume,
)
from kismet_dice.storage import Storage
from kismet_dice.strategy import Computer, Level, StrategyTable, kismet_rules
from kismet_dice.strategy.distribution import Distribution, distribution_path, save
from tests.support.games import (
    finished_two_player_game,
    hall_with_one_place_between,
    random_game,
    second_kismet_game,
)


def session_of(game: Game, *levels: Level | None) -> Session:
    seats = [
        Seat(name, level) for name, level in zip(game.names, levels or [None] * len(game.names), strict=True)
    ]
    return Session(game, seats, computer=Computer().player)


def test_the_first_action_creates_the_saved_game_and_later_ones_update_it(storage: Storage) -> None:
    session = local_session(storage, Setup((Seat("Ann"),)), rng=random.Random(3))
    assert storage.games.unfinished().games == ()
    session.roll(0)
    session.roll(0, [0, 1])
    [listed] = storage.games.unfinished().games
    assert listed.version == session.version == 1
    assert storage.games.load(listed.id)[1].to_json() == session.game.to_json()


def test_a_save_that_fails_is_told_once_and_the_game_goes_on(storage: Storage) -> None:
    session = local_session(storage, Setup((Seat("Ann"),)), rng=random.Random(4))
    session.roll(0)
    storage.close()  # from here on every write fails, as on a disk that went away
    session.roll(0, [0])
    session.act(0, Score(Box.ONES))
    problem = session.keeper.problem
    assert problem is not None
    assert "no longer saved" in problem and storage.where in problem
    assert session.game.sheet(0)[Box.ONES] is not None


def test_a_game_is_kept_from_its_first_roll_until_a_save_fails(storage: Storage) -> None:
    session = local_session(storage, Setup((Seat("Ann"),)), rng=random.Random(4))
    assert not session.kept  # nothing is stored before the first change
    session.roll(0)
    # The first save is version 0: the game is kept, and can be resumed, from there.
    assert session.version == 0 and session.kept
    storage.close()
    session.roll(0, [0])
    assert not session.kept and session.keeper.problem is not None
    assert not Session(Game(["Bob"], rng=random.Random(1)), [Seat("Bob")]).kept  # no store at all


def test_the_server_refuses_a_change_it_cannot_keep_and_the_game_stays_as_it_was(storage: Storage) -> None:
    game = Game(["Ann"], rng=random.Random(5))
    saved = storage.games.start(game, levels=[None], owner="web")
    session = Session(game, [Seat("Ann")], keeper=StoreKeeper(storage, saved, policy=Policy.REFUSE))
    session.roll(0)
    before = session.game.to_json()
    storage.close()
    with pytest.raises(Unsaved) as refused:
        session.act(0, Score(Box.SIXES))
    assert storage.where not in str(refused.value)
    assert session.game.to_json() == before and session.version == 1


def test_a_session_saves_its_computer_levels_and_assisted_mark(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    computer = Computer(table=kismet_table)
    setup = Setup((Seat("Ann"), Seat("Cid", Level.EASY)))
    session = local_session(storage, setup, computer=computer.player, rng=ScriptedDice([6, 1, 1, 2, 3, 4, 5]))
    session.roll(0)
    session.advise(0, computer.advisor())
    [saved] = storage.games.unfinished().games
    assert saved.levels == (None, "easy")
    assert saved.assisted
    resumed = resume(storage, saved.id, computer=Computer().player)
    assert resumed.seats == session.seats and resumed.assisted
    assert resumed.game.to_json() == session.game.to_json()


def test_holds_travel_with_the_roll() -> None:
    session = session_of(Game(["Ann"], rng=ScriptedDice([1, 1, 2, 3, 4, 5, 6, 6])))
    with pytest.raises(IllegalAction, match="nothing can be held"):
        session.roll(0, [0])
    session.roll(0)
    told = session.roll(0, [0, 1, 2])
    assert session.game.dice == (1, 2, 3, 6, 6)
    assert (
        told[0].text
        == "Ann kept 1 2 3 (dice 1, 2 and 3) and rolls 1 black, 2 red, 3 green, 6 black, 6 black."
    )


def test_a_person_acts_only_on_their_own_turn_and_the_game_is_unchanged_otherwise() -> None:
    session = session_of(Game(["Ann", "Bob"], rng=ScriptedDice([6, 1])))
    with pytest.raises(NotYourTurn, match="it is Ann's turn, not Bob's"):
        session.act(1, Roll())
    assert session.game.dice == () and session.version == 0


def test_a_computer_seat_plays_its_own_turns_only() -> None:
    session = session_of(Game(["Ann", "Cid"], rng=ScriptedDice([1, 6, 6, 6, 6, 6, 6])), None, Level.EASY)
    assert session.is_computer_turn
    with pytest.raises(NotYourTurn, match="computer plays its turns"):
        session.act(1, Roll())
    with pytest.raises(IllegalAction):
        session_of(Game(["Ann"], rng=ScriptedDice([1]))).computer_step()
    session.computer_step()  # rolls five sixes
    told = session.computer_step()  # an easy player takes the Kismet
    assert session.game.sheet(1)[Box.KISMET] == 80
    assert told[0].text == "Cid enters 80 in Kismet; total 80."
    assert not session.is_computer_turn


@pytest.mark.parametrize(
    ("seats", "message"),
    [((), "1 to 6"), ((Seat("A"),) * 7, "1 to 6"), ((Seat("A"), Seat("A")), "share"),
     ((Seat(" "),), "empty")],
)  # fmt: skip
def test_a_bad_set_up_says_what_is_wrong(seats: tuple[Seat, ...], message: str) -> None:
    with pytest.raises(BadSetup, match=message):
        Setup(seats).checked()


def test_an_unknown_level_names_the_levels_there_are() -> None:
    with pytest.raises(BadSetup, match="easy, medium, hard, target, win, not 'expert'"):
        Seat.from_words("A", "expert")


def test_a_set_up_survives_json_and_bad_json_is_refused() -> None:
    setup = Setup((Seat("Ann"), Seat("Hal", Level.HARD))).checked()
    assert Setup.from_json(setup.to_json()) == setup
    for text in (
        "",
        "[]",
        '{"seats": 3}',
        '{"seats": [{"name": "A", "level": "god"}], "zero_kismet_counts": 0}',
    ):
        with pytest.raises(BadSetup):
            Setup.from_json(text)


def test_whoever_an_entry_pushes_out_of_the_hall_of_fame_is_told_and_not_asked(storage: Storage) -> None:
    session = finished_two_player_game(storage)
    ann, bob = hall_with_one_place_between(storage, session)
    assert ann > bob
    assert session.hall_prompts() == (0, 1)  # nine entries: both qualify
    outcome = session.answer_hall(0, "Ann")
    assert outcome.entry is not None and outcome.dropped == (1,)
    assert outcome.told == (
        f"Ann enters the Hall of Fame at number 1 with {ann}.",
        f"Bob's {bob} no longer makes the Hall of Fame: Ann's entry just now took the last place.",
    )
    assert session.hall_prompts() == ()
    # Bob's prompt was on his page when Ann's entry took the place: his answer is refused, saying why.
    with pytest.raises(IllegalAction, match="Bob has no Hall of Fame prompt to answer any more: it was"):
        session.answer_hall(1, "Bob")
    with pytest.raises(IllegalAction, match="Ann has no Hall of Fame prompt to answer any more"):
        session.answer_hall(0, "Ann")  # answered twice
    assert [entry.name for entry in storage.hall.entries()].count("Bob") == 0
    # Loaded again, nobody is asked again.
    keeper = session.keeper
    assert isinstance(keeper, StoreKeeper) and keeper.saved_id is not None
    assert storage.games.load(keeper.saved_id, finished=True)[0].hall_asked == (0, 1)


def test_a_name_given_after_other_games_filled_the_list_is_told_so(storage: Storage) -> None:
    session = finished_two_player_game(storage)
    assert session.hall_prompts() == (0, 1)
    when = datetime(2030, 1, 1, tzinfo=UTC)
    for number in range(10):
        storage.hall.submit(f"P{number}", 999, players=1, computer=False, assisted=False, when=when)
    # Ann's prompt was shown before the list filled: her answer is told truthfully.
    outcome = session.answer_hall(0, "Ann")
    assert outcome.entry is None
    assert outcome.told[0].endswith("other games filled the list meanwhile.")


def test_the_end_of_a_game_says_how_each_total_compares_with_perfect_play(storage: Storage) -> None:
    session = finished_two_player_game(storage)
    assert session.standings() == ()  # no distribution of perfect play on this machine yet
    assert session.standings_to_work_out
    rules = kismet_rules()
    # Every total from 50 to 249 equally likely: a total t beats (t - 50) of the 200.
    save(rules, Distribution(50, np.full(200, 1 / 200)), distribution_path(rules))
    ann, bob = session.game.total(0), session.game.total(1)
    assert 50 <= bob < ann < 250
    assert session.standings() == (
        f"Ann's {ann} beats {(ann - 50) / 200:.0%} of perfect games.",
        f"Bob's {bob} beats {(bob - 50) / 200:.0%} of perfect games.",
    )
    assert not session.standings_to_work_out


@given(st.integers(0, 10_000), st.integers(1, 4), st.integers(0, 300))
@settings(max_examples=20, deadline=None)
def test_the_story_told_from_any_event_on_is_the_end_of_the_whole_story(
    seed: int, players: int, actions: int
) -> None:
    for game in (random_game(seed, players, actions), second_kismet_game()):
        whole = narration.story(game)
        for start in {
            *range(0, len(game.history), 5),
            *range(max(0, len(game.history) - 4), len(game.history) + 1),
        }:
            assert narration.story(game, start) == tuple(told for told in whole if told.index >= start)


def test_resigning_is_kept_replayed_from_the_record_and_told_once(tmp_path: Path) -> None:
    with Storage.open(tmp_path) as storage:
        setup = Setup((Seat("Ann"), Seat("Bob"), Seat("Cy")))
        session = local_session(storage, setup, rng=ScriptedDice([6, 2, 1, 2, 3, 4, 5, 6]))
        session.roll(0)
        # Cy leaves in Ann's turn, then Ann in her own: Bob's turn begins.
        told = session.resign(2) + session.resign(0)
        assert [each.text for each in told] == [
            "Cy resigns: 0 in "
            + narration.boxes([box.label for box in Box])
            + ". The game goes on without Cy.",
            "Ann resigns: 0 in "
            + narration.boxes([box.label for box in Box])
            + ". The game goes on without Ann.",
        ]
        assert session.game.current_player == 1 and session.game.resigned == (2, 0)
        with pytest.raises(IllegalAction, match="resigned already"):
            session.resign(0)
        replayed = Game.from_json(session.game.to_json())
        assert replayed.resigned == (2, 0) and replayed.current_player == 1
        assert [each.text for each in narration.story(replayed)] == [each.text for each in session.story()]
        assert sum("resigns" in each.text for each in session.story()) == 2
        keeper = session.keeper
        assert isinstance(keeper, StoreKeeper) and keeper.saved_id is not None
        saved = resume(storage, keeper.saved_id)
        assert saved.game.resigned == (2, 0)
        # The last person leaving ends the game.
        session.resign(1)
        assert session.game.is_over and session.game.history[-1] == narration.story(session.game)[-1].event


def test_a_turn_whose_time_ran_out_is_played_by_the_stated_rule_and_only_that_turn() -> None:
    session = Session.new(
        Setup((Seat("Ann"), Seat("Bob"))), rng=ScriptedDice([6, 2, 3, 3, 3, 6, 6, 1, 2, 3, 4, 6])
    )
    first = session.turn_key
    assert first == (0, 0)
    # Ann has not rolled: the table rolls 3 3 3 6 6 for her and enters the box that scores most.
    told, said = session.time_out(first)
    assert said == narration.timed_out("Ann", True, Box.FULL_HOUSE, 36)
    assert said.startswith("Ann's time ran out: the table rolled for Ann and entered 36 in Full House")
    assert session.game.sheet(0)[Box.FULL_HOUSE] == 36 and len(told) == 2
    with pytest.raises(IllegalAction, match="over already"):
        session.time_out(first)
    # Bob rolled 1 2 3 4 6: no box but Yarborough, Ones ... scores; the most is Yarborough's 16,
    # the highest on the sheet of the boxes scoring 16 (none else does).
    session.roll(1)
    _, said = session.time_out((1, 1))
    assert "entered 16 in Yarborough" in said and session.game.current_player == 0
