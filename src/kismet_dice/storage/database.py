"""The one SQLite file that holds the Hall of Fame and the saved games, and how it is opened.

Every write is one ``BEGIN IMMEDIATE`` transaction, so a process killed half-way leaves the
file as it was after the last complete write. The journal is WAL with ``synchronous=FULL``:
readers never wait for a writer, and a committed write survives a power cut. Writers wait
for each other (busy timeout, then a retry loop), so "database is locked" never reaches a player.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from kismet_dice.storage.errors import StorageError

APP_NAME = "kismet-dice"
HOME_VARIABLE = "KISMET_HOME"
FILE_NAME = "kismet.sqlite3"
# How long one operation waits for other processes' writes before giving up.
BUSY_SECONDS = 30.0


def _levels_for_legacy_flags(connection: sqlite3.Connection) -> None:
    """Migration 5: a computer seat saved before levels were kept (``true``) plays at the best level.

    JSON is rewritten in Python: SQL has no portable way to edit a JSON list. A row whose flags
    do not parse is left as it is, to be reported as unreadable when listed, as before.
    """
    rows = connection.execute("SELECT id, computer FROM saved_game WHERE computer LIKE '%true%'").fetchall()
    for game_id, text in rows:
        try:
            flags = json.loads(text)
        except ValueError:
            continue
        if not isinstance(flags, list):
            continue
        levels = ["hard" if flag is True else flag for flag in flags]
        connection.execute("UPDATE saved_game SET computer = ? WHERE id = ?", (json.dumps(levels), game_id))


# One step of a migration: an SQL statement, or a function run on the connection in the same
# transaction, for what SQL cannot say portably.
Step = str | Callable[[sqlite3.Connection], None]

# Migration N brings a file from schema version N-1 to N. Never edit one that has shipped:
# add the next. The version lives in the table ``schema_version`` (one row). New statements
# keep to SQL that PostgreSQL runs too.
MIGRATIONS: tuple[tuple[Step, ...], ...] = (
    # 1: the Hall of Fame. The id orders arrivals, so a tie ranks below the entry already there.
    (
        """CREATE TABLE hall_of_fame (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL,
            total INTEGER NOT NULL,
            date TEXT NOT NULL,
            players INTEGER NOT NULL
        )""",
    ),
    # 2: saved games: the engine's JSON record, plus what the record does not know.
    (
        """CREATE TABLE saved_game (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            record TEXT NOT NULL,
            computer TEXT NOT NULL,
            assisted INTEGER NOT NULL DEFAULT 0,
            started TEXT NOT NULL,
            saved TEXT NOT NULL,
            finished TEXT
        )""",
        "CREATE INDEX saved_game_unfinished ON saved_game (finished, saved)",
    ),
    # 3: settings kept between runs, such as the last set-up of a new game.
    ("CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL)",),
    # 4: games at the web table: the public id, the saved game, digests of the seat tokens (in
    # seating order, JSON), and the seats already asked for the Hall of Fame (JSON).
    (
        """CREATE TABLE web_table (
            id TEXT PRIMARY KEY,
            saved_game INTEGER NOT NULL UNIQUE REFERENCES saved_game (id) ON DELETE CASCADE,
            seat_digests TEXT NOT NULL,
            hall_asked TEXT NOT NULL DEFAULT '[]'
        )""",
    ),
    # 5: every saved game carries a version (one more at each write, so a save based on an old
    # read is refused), its owner (NULL: this machine's players; 'web': the web server) and the
    # seats already through the Hall of Fame prompt, so an entry and its mark are one write.
    # web_table keeps the public id and the seat digests; its hall_asked is no longer used.
    (
        "ALTER TABLE saved_game ADD COLUMN version INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE saved_game ADD COLUMN owner TEXT",
        "ALTER TABLE saved_game ADD COLUMN hall_asked TEXT NOT NULL DEFAULT '[]'",
        """UPDATE saved_game SET owner = 'web', hall_asked = (
                SELECT web_table.hall_asked FROM web_table WHERE web_table.saved_game = saved_game.id
            ) WHERE id IN (SELECT web_table.saved_game FROM web_table)""",
        "CREATE INDEX saved_game_owner_unfinished ON saved_game (owner, finished, saved)",
        _levels_for_legacy_flags,
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

T = TypeVar("T")

# Primary SQLite result codes (the low byte of an extended code).
_BUSY_CODES = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED
_DAMAGED_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
_READONLY = 8  # SQLITE_READONLY
_CANTOPEN = 14  # SQLITE_CANTOPEN
_FULL = 13  # SQLITE_FULL


def data_directory(environ: Mapping[str, str] | None = None) -> Path:
    """Where the data lives: ``$KISMET_HOME`` if set, else the user data directory for the app.

    >>> data_directory({"KISMET_HOME": "/srv/kismet"}).as_posix()
    '/srv/kismet'
    """
    home = (os.environ if environ is None else environ).get(HOME_VARIABLE, "")
    if home:
        return Path(home).expanduser().absolute()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def database_path(environ: Mapping[str, str] | None = None) -> Path:
    """The database file inside :func:`data_directory`."""
    return data_directory(environ) / FILE_NAME


@dataclass(frozen=True)
class MovedAside:
    """A damaged or foreign file found where the database should be, and where it was moved."""

    original: Path
    moved_to: Path
    reason: str

    @property
    def message(self) -> str:
        """One line for the person.

        >>> MovedAside(Path("k.db"), Path("k.db.corrupt-1"), "not SQLite").message
        'k.db was not a usable database (not SQLite); moved it to k.db.corrupt-1 and started a new one'
        """
        return (
            f"{self.original} was not a usable database ({self.reason}); "
            f"moved it to {self.moved_to} and started a new one"
        )


class _Damaged(Exception):
    """The file at the database path is not SQLite, is damaged, or is some other program's."""


def _primary_code(error: sqlite3.Error) -> int:
    return int(getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF


def _is_busy(error: sqlite3.Error) -> bool:
    return _primary_code(error) in _BUSY_CODES or "locked" in str(error) or "busy" in str(error)


def _is_damaged(error: sqlite3.Error) -> bool:
    return _primary_code(error) in _DAMAGED_CODES


def _patiently(work: Callable[[], T]) -> T:
    """Run ``work``, retrying while another process holds the lock, up to :data:`BUSY_SECONDS`."""
    deadline = time.monotonic() + BUSY_SECONDS
    pause = 0.005
    while True:
        try:
            return work()
        except sqlite3.Error as error:
            if not _is_busy(error) or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


class Database:
    """An open connection to the database file, already at :data:`SCHEMA_VERSION`.

    Open it with :meth:`open`; use :meth:`read` and :meth:`write`; :meth:`close` it (or use
    ``with``). One object serves one thread.
    """

    def __init__(self, connection: sqlite3.Connection, path: Path, moved_aside: MovedAside | None) -> None:
        self._connection = connection
        self.path = path
        self.moved_aside = moved_aside

    @classmethod
    def open(cls, path: Path | None = None) -> Database:
        """Open (creating and upgrading as needed) the database at ``path`` (default :func:`database_path`).

        A file that is not SQLite, is damaged or belongs to another program is moved aside to
        ``<name>.corrupt-<timestamp>`` and a new database started; :attr:`moved_aside` says so.
        Raises :class:`StorageError` when the place cannot be written.
        """
        path = database_path() if path is None else Path(path).absolute()
        _make_directory(path.parent)
        moved: MovedAside | None = None
        for _ in range(3):
            try:
                return cls(_connect(path), path, moved)
            except _Damaged as damage:
                moved = _move_aside(path, str(damage)) or moved
        raise StorageError(
            f"{path} keeps turning out damaged; leaving it alone",
            public="the game store keeps turning out damaged",
        )

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def read(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one query (a consistent snapshot; never waits for writers)."""
        with self._reporting():
            return _patiently(lambda: self._connection.execute(sql, parameters).fetchall())

    def write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work(connection)`` in one ``BEGIN IMMEDIATE`` transaction and commit it.

        If ``work`` raises, nothing it did is kept. Other processes' writes are waited for.
        """
        with self._reporting():
            return _patiently(lambda: _transaction(self._connection, work))

    def check_writable(self) -> None:
        """Make a real write that changes nothing; :class:`StorageError` if the file cannot be written.

        A file on a read-only disk (or a read-only file) opens and reads fine: without this,
        the first sign would be the first save failing, in the middle of a game.
        """
        self.write(lambda connection: connection.execute("UPDATE schema_version SET version = version"))

    @contextmanager
    def _reporting(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as error:
            raise _storage_error(self.path, error) from None


def _transaction(connection: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    connection.execute("BEGIN IMMEDIATE")
    try:
        result = work(connection)
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    return result


def _storage_error(path: Path, error: sqlite3.Error) -> StorageError:
    if _is_damaged(error):
        return StorageError(
            f"{path} is damaged ({error}); it will be moved aside at the next start",
            public="the game store is damaged; it will be set aside when the program next starts",
        )
    if _is_busy(error):
        return StorageError(
            f"{path} stayed busy with another kismet for {BUSY_SECONDS:.0f} seconds",
            public="the game store is busy; try again in a moment",
        )
    if _is_read_only(path, error):
        return StorageError(
            f"{path} is read-only: games and the Hall of Fame cannot be saved there ({error})",
            public="the game store is read-only",
        )
    if _primary_code(error) == _FULL:
        return StorageError(f"cannot use {path}: {error}", public="the disk holding the game store is full")
    return StorageError(f"cannot use {path}: {error}")


def _is_read_only(path: Path, error: sqlite3.Error) -> bool:
    """Whether the file, or the directory its journal must be made in, cannot be written."""
    code = _primary_code(error)
    if code == _READONLY:
        return True
    # A WAL file cannot be opened at all on a read-only disk unless its companions are there.
    return (
        code == _CANTOPEN
        and path.exists()
        and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))
    )


def _make_directory(directory: Path) -> None:
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise StorageError(
            f"cannot keep data in {directory}: it is a file, not a directory",
            public="the game store's directory cannot be created",
        ) from None
    except OSError as error:
        raise StorageError(
            f"cannot create the data directory {directory}: {error.strerror or error}",
            public="the game store's directory cannot be created",
        ) from None


def _connect(path: Path) -> sqlite3.Connection:
    """A connection in WAL mode with the schema up to date; raises :class:`_Damaged` or StorageError."""
    try:
        # isolation_level=None: no implicit transactions; every write says BEGIN IMMEDIATE itself.
        connection = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
    except sqlite3.Error as error:
        raise _storage_error(path, error) from None
    try:
        # Look before changing anything: a file that is not ours must be moved aside untouched.
        verdict = _patiently(lambda: connection.execute("PRAGMA quick_check").fetchall())
        if verdict != [("ok",)]:
            raise _Damaged("; ".join(str(row[0]) for row in verdict[:3]))
        if _patiently(lambda: _foreign(connection)):
            raise _Damaged("it holds another program's tables")
        _patiently(lambda: connection.execute("PRAGMA journal_mode=WAL").fetchall())
        connection.execute("PRAGMA synchronous=FULL")
        migrate(connection, path)
    except sqlite3.Error as error:
        connection.close()
        if _is_damaged(error):
            raise _Damaged(str(error)) from None
        raise _storage_error(path, error) from None
    except BaseException:
        connection.close()
        raise
    return connection


def schema_version(connection: sqlite3.Connection) -> int:
    """The schema version of an open database file: 0 for a new, empty one."""
    has_table = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ).fetchone()
    if not has_table:
        return 0
    row = connection.execute("SELECT version FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def _foreign(connection: sqlite3.Connection) -> bool:
    """Whether the file holds tables but no schema version: some other program's database."""
    tables = connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ).fetchall()
    return bool(tables) and ("schema_version",) not in tables


def migrate(connection: sqlite3.Connection, path: Path, target: int = SCHEMA_VERSION) -> None:
    """Bring the file up to schema version ``target``, all in one transaction."""
    version = _patiently(lambda: schema_version(connection))
    if version > SCHEMA_VERSION:
        raise StorageError(
            f"{path} was written by a newer kismet-dice (schema {version}, this one knows "
            f"{SCHEMA_VERSION}); update kismet-dice to use it",
            public="the game store was written by a newer kismet-dice",
        )
    if version >= target:
        return

    def upgrade(connection: sqlite3.Connection) -> None:
        # Read again under the write lock: another process may have upgraded meanwhile.
        version = schema_version(connection)
        if version == 0:
            if _foreign(connection):
                raise _Damaged("it holds another program's tables")
            connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            connection.execute("INSERT INTO schema_version (version) VALUES (0)")
        for number in range(version + 1, target + 1):
            for step in MIGRATIONS[number - 1]:
                if isinstance(step, str):
                    connection.execute(step)
                else:
                    step(connection)
            connection.execute("UPDATE schema_version SET version = ?", (number,))

    _patiently(lambda: _transaction(connection, upgrade))


def _move_aside(path: Path, reason: str) -> MovedAside | None:
    """Rename the file (and its WAL companions) to ``<name>.corrupt-<timestamp>``.

    Returns ``None`` when the file is already gone (another process moved it first).
    """
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    number = 1
    while target.exists():
        number += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{number}")
    try:
        path.rename(target)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise StorageError(
            f"{path} is not a usable database ({reason}) and cannot be moved aside: "
            f"{error.strerror or error}",
            public="the game store is damaged and cannot be set aside",
        ) from None
    # A stale WAL left beside a new database would be replayed into it: move it along.
    for suffix in ("-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        try:
            companion.rename(target.with_name(target.name + suffix))
        except FileNotFoundError:
            pass
        except OSError as error:
            raise StorageError(
                f"cannot move {companion} aside: {error.strerror or error}",
                public="the game store is damaged and cannot be set aside",
            ) from None
    return MovedAside(path, target, reason)
