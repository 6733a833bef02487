"""The database file: where it lives, WAL, schema upgrades, damaged files and unwritable places."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import platformdirs
import pytest

from kismet_dice.game import Game
from kismet_dice.storage import SCHEMA_VERSION, Storage, StorageError, data_directory, database_path
from kismet_dice.storage.database import migrate, schema_version
from tests.support.games import take_turn_step


def test_kismet_home_decides_where_the_file_is(home: Path) -> None:
    with Storage.open() as storage:
        assert storage.path == home / "kismet.sqlite3"
    assert (home / "kismet.sqlite3").is_file()


def test_without_kismet_home_the_user_data_directory_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KISMET_HOME", raising=False)
    expected = Path(platformdirs.user_data_dir("kismet-dice", appauthor=False))
    assert data_directory() == expected
    assert database_path() == expected / "kismet.sqlite3"
    assert data_directory({"KISMET_HOME": ""}) == expected


@pytest.mark.sqlite_only
def test_the_file_is_in_wal_mode_with_the_current_schema(storage: Storage) -> None:
    assert storage.path is not None
    raw = sqlite3.connect(storage.path)
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert raw.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
        tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"hall_of_fame", "saved_game", "setting", "schema_version"} <= tables
    finally:
        raw.close()


def test_an_older_file_is_upgraded_and_keeps_its_hall_of_fame(home: Path) -> None:
    home.mkdir()
    path = home / "kismet.sqlite3"
    old = sqlite3.connect(path, isolation_level=None)
    migrate(old, path, target=1)  # the file as version 1 left it: a Hall of Fame, no saved games
    old.execute(
        "INSERT INTO hall_of_fame (name, total, date, players) "
        "VALUES ('Old Timer', 275, '2020-01-02T03:04:05+00:00', 2)"
    )
    assert schema_version(old) == 1
    assert "saved_game" not in {r[0] for r in old.execute("SELECT name FROM sqlite_master")}
    old.close()

    with Storage.open() as storage:
        [entry] = storage.hall.entries()
        assert (entry.name, entry.total, entry.players, entry.date.year) == ("Old Timer", 275, 2, 2020)
        assert storage.games.unfinished().games == ()
        assert storage.settings.get("setup") is None
    check = sqlite3.connect(path)
    assert schema_version(check) == SCHEMA_VERSION == 8
    check.close()


def test_a_file_from_a_newer_version_is_left_alone(home: Path) -> None:
    with Storage.open():
        pass
    path = home / "kismet.sqlite3"
    raw = sqlite3.connect(path)
    raw.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    raw.commit()
    raw.close()
    with pytest.raises(StorageError, match="newer kismet-dice"):
        Storage.open()
    assert sorted(p.name for p in home.iterdir() if "corrupt" in p.name) == []


def _corrupt_files(home: Path) -> list[Path]:
    return sorted(home.glob("kismet.sqlite3.corrupt-*"))


def test_a_file_that_is_not_sqlite_is_moved_aside_and_a_new_one_started(home: Path) -> None:
    home.mkdir()
    (home / "kismet.sqlite3").write_text("these are my notes, not a database\n" * 10)
    with Storage.open() as storage:
        moved = storage.moved_aside
        assert moved is not None
        assert storage.hall.entries() == ()
        storage.hall.submit("Ann", 10, players=1, computer=False, assisted=False)
    [aside] = _corrupt_files(home)
    assert moved.moved_to == aside
    assert aside.read_text().startswith("these are my notes")
    assert str(aside) in moved.message
    assert "\n" not in moved.message
    with Storage.open() as storage:  # the new file is fine from then on
        assert storage.moved_aside is None
        assert [e.name for e in storage.hall.entries()] == ["Ann"]


def test_a_damaged_sqlite_file_is_moved_aside(home: Path) -> None:
    with Storage.open() as storage:
        for number in range(10):
            storage.hall.submit(f"P{number}", 100 + number, players=1, computer=False, assisted=False)
    path = home / "kismet.sqlite3"
    data = bytearray(path.read_bytes())
    assert data.startswith(b"SQLite format 3\x00")
    assert len(data) >= 4096 * 2
    # Keep the header, scribble over every page after the first.
    data[4096:] = b"\xa5" * (len(data) - 4096)
    path.write_bytes(bytes(data))
    with Storage.open() as storage:
        assert storage.moved_aside is not None
        assert storage.hall.entries() == ()
    [aside] = _corrupt_files(home)
    assert aside.read_bytes() == bytes(data)


def test_another_programs_sqlite_file_is_moved_aside_not_changed(home: Path) -> None:
    home.mkdir()
    path = home / "kismet.sqlite3"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE recipes (name TEXT)")
    other.commit()
    other.close()
    before = path.read_bytes()
    with Storage.open() as storage:
        assert storage.moved_aside is not None
        assert "another program" in storage.moved_aside.reason
    [aside] = _corrupt_files(home)
    assert aside.read_bytes() == before


def test_kismet_home_below_a_regular_file_is_an_error_naming_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # chmod does not stop root from writing, but no one can make a directory inside a file.
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way")
    monkeypatch.setenv("KISMET_HOME", str(blocker / "kismet"))
    with pytest.raises(StorageError) as caught:
        Storage.open()
    assert str(blocker / "kismet") in str(caught.value)
    assert blocker.read_text() == "in the way"


def test_kismet_home_that_is_a_file_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way")
    monkeypatch.setenv("KISMET_HOME", str(blocker))
    with pytest.raises(StorageError, match="not a directory"):
        Storage.open()


def test_a_directory_where_the_file_should_be_is_an_error(home: Path) -> None:
    (home / "kismet.sqlite3").mkdir(parents=True)
    with pytest.raises(StorageError) as caught:
        Storage.open()
    assert str(home / "kismet.sqlite3") in str(caught.value)
    assert (home / "kismet.sqlite3").is_dir()
    assert _corrupt_files(home) == []


def test_a_version_4_file_gets_versions_owners_hall_marks_levels_and_players(home: Path) -> None:
    home.mkdir()
    path = home / "kismet.sqlite3"
    old = sqlite3.connect(path, isolation_level=None)
    migrate(old, path, target=4)  # the file as version 4 left it, by the shipped migrations
    playing = Game(["Ann", "Bot"], rng=random.Random(1))
    for _ in range(4):
        take_turn_step(playing)
    over = Game(["Cy", "Di"], rng=random.Random(2))
    while not over.is_over:
        take_turn_step(over)
    when = "2024-05-01T14:03:00+00:00"
    rows = [
        # A terminal game with a computer seat saved before levels were kept.
        (1, playing.to_json(), "[false, true]", None),
        # A finished web game, one seat already through the Hall of Fame prompt.
        (2, over.to_json(), "[false, false]", when),
        # An unfinished web game, and a row whose flags never parsed (it stays as it was).
        (3, Game(["Ed"], rng=random.Random(3)).to_json(), "[false]", None),
        (4, Game(["Flo"], rng=random.Random(4)).to_json(), "[true, {oops", None),
    ]
    for game_id, record, computer, finished in rows:
        old.execute(
            "INSERT INTO saved_game (id, record, computer, assisted, started, saved, finished) "
            "VALUES (?, ?, ?, 0, ?, ?, ?)",
            (game_id, record, computer, when, when, finished),
        )
    old.execute("INSERT INTO web_table VALUES ('over-table', 2, '[\"d-cy\", \"d-di\"]', '[1]')")
    old.execute("INSERT INTO web_table (id, saved_game, seat_digests) VALUES ('ed-table', 3, '[\"d-ed\"]')")
    old.close()

    with Storage.open() as storage:
        [terminal] = storage.games.unfinished().games
        assert (terminal.id, terminal.owner, terminal.version) == (1, None, 0)
        assert terminal.levels == (None, "hard") and terminal.hall_asked == ()
        web, _ = storage.games.load(2, finished=True)
        assert (web.owner, web.hall_asked, web.version, web.levels) == ("web", (1,), 0, (None, None))
        assert storage.games.load(3)[0].owner == "web"
        assert storage.tables.find("over-table") == (2, ("d-cy", "d-di"))
        assert storage.tables.unfinished() == ("ed-table",)
        flags = dict(storage.database.read("SELECT id, computer FROM saved_game"))
        assert flags == {1: '[false, "hard"]', 2: "[false, false]", 3: "[false]", 4: "[true, {oops"}
        players = dict(storage.database.read("SELECT id, players FROM saved_game"))
        assert players == {1: '["Ann", "Bot"]', 2: '["Cy", "Di"]', 3: '["Ed"]', 4: '["Flo"]'}
        # The migrated file takes versioned writes at once.
        take_turn_step(playing)
        resaved = storage.games.save(1, playing, version=0)
        # Its turn's start was never kept: the first save counts the turn from then.
        assert resaved.version == 1 and resaved.turn_began == resaved.saved
    check = sqlite3.connect(path)
    assert schema_version(check) == 8
    check.close()


def test_storage_errors_keep_the_path_for_the_person_and_tell_clients_none(
    home: Path, tmp_path: Path
) -> None:
    errors: list[StorageError] = []
    with Storage.open():
        pass
    raw = sqlite3.connect(home / "kismet.sqlite3")
    raw.execute("UPDATE schema_version SET version = 99")
    raw.commit()
    raw.close()
    with pytest.raises(StorageError) as newer:
        Storage.open()
    errors.append(newer.value)
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way")
    with pytest.raises(StorageError) as not_a_directory:
        Storage.open(blocker)
    errors.append(not_a_directory.value)
    (tmp_path / "dir" / "kismet.sqlite3").mkdir(parents=True)
    with pytest.raises(StorageError) as cannot_open:
        Storage.open(tmp_path / "dir")
    errors.append(cannot_open.value)

    with Storage.open(tmp_path / "fine") as storage:
        storage.hall.submit("Ann", 10, players=1, computer=False, assisted=False)
        storage.database.write(lambda connection: connection.execute("UPDATE hall_of_fame SET date = 'soon'"))
        with pytest.raises(StorageError) as bad_date:
            storage.hall.entries()
        errors.append(bad_date.value)
        with pytest.raises(StorageError) as failed_write:
            storage.database.write(lambda connection: connection.execute("INSERT INTO nowhere VALUES (1)"))
        errors.append(failed_write.value)

    for error in errors:
        assert str(tmp_path) in str(error)  # the person at this machine is told where
        assert error.public and "/" not in error.public
        assert "sqlite" not in error.public.lower() and "no such table" not in error.public
    assert [error.public for error in errors] == [
        "the game store was written by a newer kismet-dice",
        "the game store's directory cannot be created",
        "the game store cannot be used right now",
        "the Hall of Fame holds an entry that cannot be read",
        "the game store cannot be used right now",
    ]
