"""Every write of a saved game names the version it read: stale writes change nothing.

Also the Hall of Fame answer and its "asked" mark as one write, the owner that keeps web games
out of the list to resume, and the web tables kept in storage.
"""

from __future__ import annotations

import random
from functools import partial

import pytest

from kismet_dice.game import Game
from kismet_dice.rules import IllegalAction
from kismet_dice.storage import (
    Connection,
    NotEligible,
    SavedGame,
    SavedGameError,
    Storage,
    StorageError,
    VersionConflict,
)
from tests.support.games import take_turn_step


def new_game(seed: int = 7, names: tuple[str, ...] = ("Ann", "Bob")) -> Game:
    return Game(list(names), rng=random.Random(seed))


def finished_game(seed: int = 7, names: tuple[str, ...] = ("Ann", "Bob")) -> Game:
    game = new_game(seed, names)
    while not game.is_over:
        take_turn_step(game)
    return game


def stored_row(storage: Storage, game_id: int) -> list[tuple[object, ...]]:
    return storage.database.read("SELECT * FROM saved_game WHERE id = ?", (game_id,))


def test_each_save_adds_one_to_the_version_it_names(storage: Storage) -> None:
    game = new_game()
    saved = storage.games.start(game)
    assert saved.version == 0 and storage.games.version(saved.id) == 0
    for expected in (1, 2, 3):
        take_turn_step(game)
        saved = storage.games.save(saved.id, game, version=saved.version)
        assert saved.version == expected == storage.games.version(saved.id)
    assert storage.games.load(saved.id)[0].version == 3


def test_the_version_of_a_game_that_is_not_there_is_an_error(storage: Storage) -> None:
    with pytest.raises(SavedGameError, match="no saved game 41"):
        storage.games.version(41)


def test_a_stale_save_is_refused_and_the_stored_game_is_unchanged(storage: Storage) -> None:
    game = new_game()
    first = storage.games.start(game)
    take_turn_step(game)
    second = storage.games.save(first.id, game, version=first.version)
    before = stored_row(storage, first.id)
    take_turn_step(game)
    with pytest.raises(VersionConflict, match=f"saved game {first.id} has changed since it was read"):
        storage.games.save(first.id, game, version=first.version, assisted=True)
    assert stored_row(storage, first.id) == before
    assert storage.games.version(first.id) == second.version == 1
    assert not storage.games.load(first.id)[0].assisted


def test_a_version_from_the_future_is_refused_too(storage: Storage) -> None:
    game = new_game()
    saved = storage.games.start(game)
    take_turn_step(game)
    with pytest.raises(VersionConflict):
        storage.games.save(saved.id, game, version=5)
    assert storage.games.version(saved.id) == 0


def test_a_save_from_another_process_is_not_overwritten_by_an_older_read(home: object) -> None:
    # Two Storage objects on one file stand for two processes: each has its own connection.
    with Storage.open() as first, Storage.open() as second:
        game = new_game()
        started = first.games.start(game)
        take_turn_step(game)
        first.games.save(started.id, game, version=started.version)

        read_a, game_a = first.games.load(started.id, rng=random.Random(1))
        read_b, game_b = second.games.load(started.id, rng=random.Random(2))
        take_turn_step(game_b)
        written_b = second.games.save(read_b.id, game_b, version=read_b.version)
        take_turn_step(game_a)
        with pytest.raises(VersionConflict):
            first.games.save(read_a.id, game_a, version=read_a.version)

        # What B acknowledged is what is kept, and A can read it again and go on from there.
        reread, kept = first.games.load(started.id)
        assert kept.to_json() == game_b.to_json() != game_a.to_json()
        assert reread.version == written_b.version == 2


def test_unfinished_leaves_out_games_with_an_owner(storage: Storage) -> None:
    own = storage.games.start(new_game(1, ("Ann",)))
    web = storage.games.start(new_game(2, ("Bob",)), owner="web")
    assert (own.owner, web.owner) == (None, "web")
    assert [game.id for game in storage.games.unfinished().games] == [own.id]
    # Still loadable by its owner, which knows its id.
    assert storage.games.load(web.id)[0].owner == "web"


def answer(storage: Storage, saved: SavedGame, seat: int, name: str | None, version: int) -> object:
    game = storage.games.load(saved.id, finished=True)[1]
    return storage.games.answer_hall(
        saved.id, seat, name, version=version, total=game.total(seat), players=len(game.names)
    )


def test_a_hall_answer_enters_the_total_and_marks_the_seat_in_one_write(storage: Storage) -> None:
    game = finished_game()
    saved = storage.games.start(game)
    result = storage.games.answer_hall(saved.id, 1, " Bea ", version=0, total=game.total(1), players=2)
    assert result.entry is not None
    assert (result.entry.name, result.entry.total, result.entry.players) == ("Bea", game.total(1), 2)
    assert (result.version, result.hall_asked) == (1, (1,))
    declined = storage.games.answer_hall(saved.id, 0, None, version=1, total=game.total(0), players=2)
    assert (declined.entry, declined.version, declined.hall_asked) == (None, 2, (0, 1))
    assert [entry.name for entry in storage.hall.entries()] == ["Bea"]
    loaded = storage.games.load(saved.id, finished=True)[0]
    assert (loaded.hall_asked, loaded.version) == ((0, 1), 2)


def run(statement: str, connection: Connection) -> None:
    connection.execute(statement)


# A trigger that fails every write of the Hall of Fame marks, as each store spells it.
FAILING_MARK = {
    "sqlite": (
        "CREATE TRIGGER fail_mark BEFORE UPDATE OF hall_asked ON saved_game "
        "BEGIN SELECT RAISE(ABORT, 'the disk gave up'); END",
    ),
    "postgresql": (
        "CREATE FUNCTION give_up() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'the disk gave up'; END $$",
        "CREATE TRIGGER fail_mark BEFORE UPDATE OF hall_asked ON saved_game "
        "FOR EACH ROW EXECUTE FUNCTION give_up()",
    ),
}
DROP_FAILING_MARK = {"sqlite": "DROP TRIGGER fail_mark", "postgresql": "DROP TRIGGER fail_mark ON saved_game"}


def test_a_hall_answer_whose_write_fails_half_way_leaves_nothing_and_a_retry_enters_once(
    storage: Storage,
) -> None:
    saved = storage.games.start(finished_game(3, ("Ann",)))
    # The mark is the second statement of the write, after the entry: make it fail.
    for statement in FAILING_MARK[storage.dialect]:
        storage.database.write(partial(run, statement))
    with pytest.raises(StorageError, match="the disk gave up"):
        answer(storage, saved, 0, "Ann", version=0)
    assert storage.hall.entries() == ()
    after_failure = storage.games.load(saved.id, finished=True)[0]
    assert (after_failure.hall_asked, after_failure.version) == ((), 0)

    storage.database.write(lambda connection: connection.execute(DROP_FAILING_MARK[storage.dialect]))
    answer(storage, saved, 0, "Ann", version=0)
    # A second retry (the answer's reply was lost, say) is refused: still one entry.
    with pytest.raises(SavedGameError, match="already answered"):
        answer(storage, saved, 0, "Ann", version=1)
    with pytest.raises(VersionConflict):
        answer(storage, saved, 0, "Ann", version=0)
    assert [entry.name for entry in storage.hall.entries()] == ["Ann"]


def test_a_refused_name_or_a_stale_version_writes_no_entry_and_no_mark(storage: Storage) -> None:
    saved = storage.games.start(finished_game(4, ("Ann",)))
    before = stored_row(storage, saved.id)
    with pytest.raises(IllegalAction, match="empty"):
        answer(storage, saved, 0, "   ", version=0)
    with pytest.raises(VersionConflict):
        answer(storage, saved, 0, "Ann", version=3)
    assert storage.hall.entries() == ()
    assert stored_row(storage, saved.id) == before
    answer(storage, saved, 0, "Ann", version=0)
    assert [entry.name for entry in storage.hall.entries()] == ["Ann"]


def test_computer_seats_assisted_games_and_games_not_over_give_no_hall_answer(storage: Storage) -> None:
    with_computer = storage.games.start(finished_game(5), levels=[None, "easy"])
    with pytest.raises(NotEligible, match="computer"):
        answer(storage, with_computer, 1, "Robbie", version=0)
    game = new_game(6, ("Ann",))
    assisted = storage.games.start(game, assisted=True)
    while not game.is_over:
        take_turn_step(game)
        assisted = storage.games.save(assisted.id, game, version=assisted.version)
    with pytest.raises(NotEligible, match="advice"):
        answer(storage, assisted, 0, "Ann", version=assisted.version)
    playing = storage.games.start(new_game(8, ("Ann",)))
    with pytest.raises(SavedGameError, match="not over"):
        storage.games.answer_hall(playing.id, 0, "Ann", version=0, total=10, players=1)
    with pytest.raises(SavedGameError, match="no seat 2"):
        storage.games.answer_hall(with_computer.id, 2, None, version=0, total=10, players=2)
    assert storage.hall.entries() == ()
    assert storage.games.version(with_computer.id) == 0


def test_seats_that_no_longer_qualify_are_marked_asked_by_version(storage: Storage) -> None:
    saved = storage.games.start(finished_game(9, ("Ann", "Bob", "Cy")))
    assert storage.games.mark_hall_asked(saved.id, [2, 0], version=0) == 1
    with pytest.raises(VersionConflict):
        storage.games.mark_hall_asked(saved.id, [1], version=0)
    with pytest.raises(SavedGameError, match="already answered"):
        storage.games.mark_hall_asked(saved.id, [1, 2], version=1)
    loaded = storage.games.load(saved.id, finished=True)[0]
    assert (loaded.hall_asked, loaded.version) == ((0, 2), 1)


def test_a_web_table_is_its_saved_game_and_its_digests_written_together(storage: Storage) -> None:
    game = new_game(10, ("Ann", "Bot"))
    saved = storage.tables.create("table-1", game, ["digest-ann", ""], [None, "hard"])
    assert (saved.owner, saved.version, saved.levels) == ("web", 0, (None, "hard"))
    assert storage.tables.find("table-1") == (saved.id, ("digest-ann", ""))
    assert storage.tables.find("no-such-table") is None
    assert storage.tables.unfinished() == ("table-1",)
    assert storage.games.unfinished().games == ()

    # A table id already taken: the second game is not written either.
    with pytest.raises(ValueError, match="already"):
        storage.tables.create("table-1", new_game(11, ("Cy",)), ["digest-cy"], [None])
    assert storage.database.read("SELECT COUNT(*) FROM saved_game") == [(1,)]
    with pytest.raises(ValueError, match="one seat digest per player"):
        storage.tables.create("table-2", new_game(12, ("Cy",)), [], [None])
    assert storage.database.read("SELECT COUNT(*) FROM saved_game") == [(1,)]


def test_web_tables_whose_game_is_over_are_not_unfinished_and_the_oldest_comes_first(
    storage: Storage,
) -> None:
    older = storage.tables.create("older", new_game(13, ("Ann",)), ["a"], [None])
    storage.tables.create("newer", new_game(14, ("Bob",)), ["b"], [None])
    storage.tables.create("over", finished_game(15, ("Cy",)), ["c"], [None])
    # The order is by last save, not by creation: the table created first is saved last here.
    storage.database.write(
        lambda connection: connection.execute(
            "UPDATE saved_game SET saved = '2999-01-01T00:00:00+00:00' WHERE id = ?", (older.id,)
        )
    )
    assert storage.tables.unfinished() == ("newer", "older")


def test_unreadable_seat_digests_are_reported(storage: Storage) -> None:
    storage.tables.create("table-1", new_game(16, ("Ann",)), ["a"], [None])
    storage.database.write(
        lambda connection: connection.execute("UPDATE web_table SET seat_digests = '{oops'")
    )
    with pytest.raises(SavedGameError, match="seat digests"):
        storage.tables.find("table-1")
