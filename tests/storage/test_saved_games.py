"""Saved games: saving after every action, loading, finishing, flags, and records that fail to replay."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from kismet_dice.game import Game
from kismet_dice.storage import Connection, SavedGameError, Storage, saved_games
from tests.support.games import take_turn_step


def new_game(seed: int = 7, names: tuple[str, ...] = ("Ann", "Bob")) -> Game:
    return Game(list(names), rng=random.Random(seed))


def actions(record: str) -> list[object]:
    return list(json.loads(record)["actions"])


def test_a_game_saved_after_each_action_loads_as_it_was(storage: Storage) -> None:
    game = new_game()
    saved = storage.games.start(game)
    for _ in range(11):  # ends in the middle of a turn, with dice on the table
        take_turn_step(game)
        saved = storage.games.save(saved.id, game, version=saved.version)
    assert game.dice
    summary, loaded = storage.games.load(saved.id, rng=random.Random(1))
    assert loaded.to_json() == game.to_json()
    assert (loaded.dice, loaded.rolls_left, loaded.current_player) == (
        game.dice,
        game.rolls_left,
        game.current_player,
    )
    assert summary.names == ("Ann", "Bob")
    assert summary.totals == (game.total(0), game.total(1))
    assert summary.round == game.round
    assert storage.games.unfinished().games == (summary,)


def test_unfinished_games_are_listed_latest_first(storage: Storage) -> None:
    first = storage.games.start(new_game(1, ("Ann",)))
    second = storage.games.start(new_game(2, ("Bob", "Cy")))
    listed = storage.games.unfinished()
    assert [game.id for game in listed.games] == [second.id, first.id]
    assert listed.unreadable == ()


def test_a_finished_game_is_marked_and_no_longer_offered(storage: Storage) -> None:
    game = new_game(3, ("Ann",))
    saved = storage.games.start(game)
    while not game.is_over:
        take_turn_step(game)
        saved = storage.games.save(saved.id, game, version=saved.version)
    assert saved.current_player is None
    assert storage.games.unfinished().games == ()
    with pytest.raises(SavedGameError, match="over"):
        storage.games.load(saved.id)
    with pytest.raises(SavedGameError, match="over"):
        storage.games.save(saved.id, game, version=saved.version)


def test_computer_seats_and_the_assisted_mark_are_kept(storage: Storage) -> None:
    game = new_game()
    saved = storage.games.start(game, levels=[None, "medium"])
    assert saved.humans == (0,)
    assert not saved.assisted
    take_turn_step(game)
    saved = storage.games.save(saved.id, game, version=saved.version, assisted=True)
    assert saved.assisted
    take_turn_step(game)
    # Saving without the flag does not take the mark away.
    assert storage.games.save(saved.id, game, version=saved.version).assisted
    summary, _ = storage.games.load(saved.id)
    assert (summary.computer, summary.assisted) == ((False, True), True)


def test_flags_and_players_must_match_the_game(storage: Storage) -> None:
    with pytest.raises(ValueError, match="levels"):
        storage.games.start(new_game(), levels=["hard"])
    saved = storage.games.start(new_game())
    with pytest.raises(SavedGameError, match="other players"):
        storage.games.save(saved.id, new_game(5, ("Ann", "Zed")), version=0)
    with pytest.raises(SavedGameError, match="no saved game"):
        storage.games.save(saved.id + 100, new_game(), version=0)
    assert storage.games.discard(saved.id)
    assert not storage.games.discard(saved.id)


def test_a_record_that_fails_to_replay_is_reported_skipped_and_kept(storage: Storage) -> None:
    good = storage.games.start(new_game(8, ("Ann",)))
    game = new_game(9, ("Bob",))
    bad = storage.games.start(game)
    for _ in range(3):  # roll, roll, score
        take_turn_step(game)
    storage.games.save(bad.id, game, version=bad.version)
    record = json.loads(game.to_json())
    record["actions"][-1]["points"] += 1  # claims a point the dice never scored
    tampered = json.dumps(record)
    storage.database.write(
        lambda connection: connection.execute(
            "UPDATE saved_game SET record = ? WHERE id = ?", (tampered, bad.id)
        )
    )

    listed = storage.games.unfinished()
    assert [g.id for g in listed.games] == [good.id]
    [unreadable] = listed.unreadable
    assert unreadable.id == bad.id
    assert "scores" in unreadable.reason
    with pytest.raises(SavedGameError, match=f"saved game {bad.id}"):
        storage.games.load(bad.id)
    # Reported, never repaired or deleted behind the person's back.
    assert storage.database.read("SELECT record FROM saved_game WHERE id = ?", (bad.id,)) == [(tampered,)]


@pytest.mark.parametrize(
    ("column", "value"),
    [("record", "{not json"), ("record", '{"format": "something else"}'), ("computer", "[false, 3]")],
)
def test_other_broken_rows_are_skipped_too(storage: Storage, column: str, value: str) -> None:
    saved = storage.games.start(new_game(10, ("Ann",)))
    storage.database.write(
        lambda connection: connection.execute(
            f"UPDATE saved_game SET {column} = ? WHERE id = ?", (value, saved.id)
        )
    )
    listed = storage.games.unfinished()
    assert listed.games == ()
    assert [u.id for u in listed.unreadable] == [saved.id]


class Interrupted(Exception):
    pass


def test_a_write_interrupted_half_way_leaves_the_last_complete_action(storage: Storage) -> None:
    game = new_game()
    saved = storage.games.start(game)
    for _ in range(4):
        take_turn_step(game)
        saved = storage.games.save(saved.id, game, version=saved.version)
    before = game.to_json()

    def half_a_save(connection: Connection) -> None:
        connection.execute("UPDATE saved_game SET record = ? WHERE id = ?", ('{"actions": [', saved.id))
        raise Interrupted

    with pytest.raises(Interrupted):
        storage.database.write(half_a_save)
    assert storage.games.load(saved.id)[1].to_json() == before


TESTS = Path(__file__).parent

# Saves a game, then starts another save by hand and waits, mid-transaction, to be killed.
KILLED_MID_WRITE = """
import random, sys, time
sys.path.insert(0, sys.argv[1])
from tests.support.games import take_turn_step
from kismet_dice.game import Game
from kismet_dice.storage import Storage

storage = Storage.open()
game = Game(["Ann", "Bob"], rng=random.Random(11))
saved = storage.games.start(game)
for _ in range(5):
    take_turn_step(game)
    saved = storage.games.save(saved.id, game, version=saved.version)

def hang(connection):
    # Large enough to spill pages into the WAL file before the commit that never comes.
    connection.execute("UPDATE saved_game SET record = ? WHERE id = ?", ("x" * 5_000_000, saved.id))
    print("writing", flush=True)
    time.sleep(120)

storage.database.write(hang)
"""

# Plays game after game, saving after every action, until killed; reports each completed save.
KILLED_WHILE_PLAYING = """
import random, sys
sys.path.insert(0, sys.argv[1])
from tests.support.games import take_turn_step
from kismet_dice.game import Game
from kismet_dice.storage import Storage

storage = Storage.open()
saves = 0
for number in range(1000):
    game = Game(["Ann", "Bob"], rng=random.Random(int(sys.argv[2]) + number))
    saved = storage.games.start(game)
    while not game.is_over:
        take_turn_step(game)
        saved = storage.games.save(saved.id, game, version=saved.version)
        saves += 1
        print(saves, flush=True)
"""


def run_child(script: str, home: Path, *arguments: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", script, str(TESTS), *arguments],
        env={**os.environ, "KISMET_HOME": str(home)},
        stdout=subprocess.PIPE,
        text=True,
    )


def test_a_process_killed_in_the_middle_of_writing_a_game(home: Path) -> None:
    child = run_child(KILLED_MID_WRITE, home)
    assert child.stdout is not None
    assert child.stdout.readline() == "writing\n"
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL

    expected = Game(["Ann", "Bob"], rng=random.Random(11))
    for _ in range(5):
        take_turn_step(expected)
    with Storage.open() as storage:
        assert storage.moved_aside is None
        [summary] = storage.games.unfinished().games
        assert storage.games.load(summary.id)[1].to_json() == expected.to_json()


def whole_game(seed: int) -> list[object]:
    game = Game(["Ann", "Bob"], rng=random.Random(seed))
    while not game.is_over:
        take_turn_step(game)
    return actions(game.to_json())


@pytest.mark.parametrize("kill_after", [17, 95, 260])
def test_a_process_killed_at_any_moment_of_play(home: Path, kill_after: int) -> None:
    seed = 1000 * kill_after
    child = run_child(KILLED_WHILE_PLAYING, home, str(seed))
    assert child.stdout is not None
    reported = 0
    while reported < kill_after:
        reported = int(child.stdout.readline())
    # The child does not wait: it is somewhere in its next saves, maybe in the middle of one.
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)

    with Storage.open() as storage:
        rows = storage.database.read("SELECT id, record, finished FROM saved_game ORDER BY id")
        unfinished = storage.games.unfinished()
        assert unfinished.unreadable == ()
        for game in unfinished.games:
            storage.games.load(game.id)
    assert rows
    stored = 0
    for number, (_, record, finished) in enumerate(rows):
        done = actions(record)
        expected = whole_game(seed + number)
        # Each game exactly as played, action for action, up to its last complete save.
        assert done == expected[: len(done)]
        assert (finished is not None) == (len(done) == len(expected))
        stored += len(done)
    assert stored >= reported
    assert len(unfinished.games) <= 1


def test_computer_levels_are_kept_for_resuming(storage: Storage) -> None:
    game = Game(["Ann", "Bot"], rng=random.Random(3))
    saved = storage.games.start(game, levels=[None, "hard"])
    assert saved.computer == (False, True) and saved.levels == (None, "hard")
    game.roll()
    storage.games.save(saved.id, game, version=saved.version)
    loaded, _ = storage.games.load(saved.id)
    assert loaded.levels == (None, "hard") and loaded.humans == (0,)


def test_levels_name_a_level_for_every_seat(storage: Storage) -> None:
    game = Game(["Ann", "Bot"], rng=random.Random(3))
    with pytest.raises(ValueError, match="levels"):
        storage.games.start(game, levels=[None, ""])
    with pytest.raises(ValueError, match="levels"):
        storage.games.start(game, levels=[None, True])  # type: ignore[list-item]
    assert storage.games.unfinished().games == ()


def test_settings_keep_the_last_value(storage: Storage) -> None:
    storage.settings.put("setup", "one")
    storage.settings.put("setup", "two")
    assert storage.settings.get("setup") == "two"


def test_a_game_loaded_over_an_earlier_copy_is_the_stored_game(storage: Storage) -> None:
    game = new_game()
    saved = storage.games.start(game)
    earlier = game.copy()
    for _ in range(5):
        take_turn_step(game)
        saved = storage.games.save(saved.id, game, version=saved.version)
    _, carried_on = storage.games.load(saved.id, known=earlier)
    assert carried_on.history == game.history and carried_on.to_json() == game.to_json()
    assert len(earlier.history) < len(game.history)  # the copy handed in is left as it was
    # A copy that the record does not continue (another game) is not used: the record is replayed.
    _, replayed = storage.games.load(saved.id, known=new_game(8, ("Ann", "Bob")))
    assert replayed.to_json() == game.to_json()


def test_a_save_told_the_saved_game_it_extends_answers_as_one_that_reads_it_back(storage: Storage) -> None:
    told, read = new_game(11), new_game(11)
    kept_told = storage.games.start(told, levels=[None, "hard"], owner="web")
    kept_read = storage.games.start(read, levels=[None, "hard"], owner="web")
    for step in range(9):
        take_turn_step(told)
        take_turn_step(read)
        assisted = step == 4  # marked once, kept for good
        kept_told = storage.games.save(
            kept_told.id, told, version=kept_told.version, assisted=assisted, known=kept_told
        )
        kept_read = storage.games.save(kept_read.id, read, version=kept_read.version, assisted=assisted)
        # The two games began a moment apart: their times are their own.
        told_as_read = replace(
            kept_told, id=0, saved=kept_read.saved, started=kept_read.started, turn_began=kept_read.turn_began
        )
        assert told_as_read == replace(kept_read, id=0)
    assert kept_told.assisted and kept_told.levels == (None, "hard") and kept_told.owner == "web"
    assert storage.games.load(kept_told.id)[0] == kept_told  # what was taken as known is what is stored


def test_a_save_told_another_version_of_the_game_is_refused_before_anything_is_written(
    storage: Storage,
) -> None:
    game = new_game(12)
    saved = storage.games.start(game)
    take_turn_step(game)
    newer = storage.games.save(saved.id, game, version=saved.version)
    take_turn_step(game)
    with pytest.raises(ValueError, match="version 0"):
        storage.games.save(newer.id, game, version=newer.version, known=saved)
    assert storage.games.version(saved.id) == newer.version


def test_a_turn_begins_when_the_save_before_it_ends_a_turn_and_rolls_do_not_move_it(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = iter(datetime(2026, 12, 2, 3, 0, second, tzinfo=UTC) for second in range(60))
    monkeypatch.setattr(saved_games, "_now", lambda: next(clock))
    game = new_game()
    saved = storage.games.start(game)
    began = saved.turn_began
    assert began == saved.started
    game.roll()
    for known in (saved, None):  # with the caller's copy of the saved game, and read back
        saved = storage.games.save(saved.id, game, version=saved.version, known=known)
        assert saved.turn_began == began and saved.saved > began
    game.score(next(box for box, points in game.options().items() if points))
    saved = storage.games.save(saved.id, game, version=saved.version)
    assert saved.turn_began == saved.saved > began
    game.roll()
    rolled = storage.games.save(saved.id, game, version=saved.version, known=saved)
    assert rolled.turn_began == saved.saved
    assert storage.games.load(saved.id)[0].turn_began == saved.saved
