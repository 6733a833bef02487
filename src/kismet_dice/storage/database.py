"""The database that holds the Hall of Fame and the saved games: what every store offers, and the
SQLite file that is the default.

Two stores share one schema and one set of migrations: the SQLite file here, for a player's machine
and a one-process server, and PostgreSQL (:mod:`kismet_dice.storage.postgres`) for a site run by
several server processes. Every statement is written once, with ``?`` placeholders; a
:class:`Connection` runs it on either store.

On SQLite every write is one ``BEGIN IMMEDIATE`` transaction, so a process killed half-way leaves the
file as it was after the last complete write. The journal is WAL with ``synchronous=FULL``:
readers never wait for a writer, and a committed write survives a power cut. Writers wait
for each other (busy timeout, then a retry loop), so "database is locked" never reaches a player.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any, ClassVar, Protocol, TypeVar

import platformdirs

from kismet_dice.storage.errors import StorageError

APP_NAME = "kismet-dice"
HOME_VARIABLE = "KISMET_HOME"
# A site's database, when set: a PostgreSQL URL, used instead of the file in KISMET_HOME.
DATABASE_VARIABLE = "KISMET_DATABASE_URL"
FILE_NAME = "kismet.sqlite3"
# Beside the file: held by the one ``kismet serve`` that may use it.
SERVE_LOCK_SUFFIX = ".serve-lock"
# How long one operation waits for other processes' writes before giving up.
BUSY_SECONDS = 30.0


class Cursor(Protocol):
    """What a statement gives back, on either store."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Connection(ABC):
    """The connection a write runs on, inside its one transaction, whichever the store.

    Statements are written once with ``?`` placeholders; :meth:`execute` runs them as the store
    needs. A new id is read with ``RETURNING id`` (both stores have it), never ``lastrowid``.
    """

    dialect: ClassVar[str]

    @abstractmethod
    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Cursor:
        """Run one statement; its cursor."""

    @abstractmethod
    def has_table(self, name: str) -> bool:
        """Whether the database holds a table ``name``."""

    @abstractmethod
    def lock_table(self, table: str) -> None:
        """Keep other writers of ``table`` out until this transaction ends, so what a read decides
        still holds when the write is made."""

    @abstractmethod
    def notify_saved(self, game_id: int, version: int) -> None:
        """Tell other processes, once this transaction commits, that the game reached ``version``."""

    def update_saved(self, sql: str, parameters: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """Run ``UPDATE saved_game ... RETURNING ..., id, version`` (of one game, those two
        columns last) and tell other processes of the new version on commit; the row, or
        ``None`` if the UPDATE's WHERE matched nothing."""
        row = self.execute(sql, parameters).fetchone()
        if row is not None:
            self.notify_saved(int(row[-2]), int(row[-1]))
        return None if row is None else tuple(row)


def _players_from_records(connection: Connection) -> None:
    """Migration 6: each saved game's players, as its record names them (JSON, as a new game's
    are written). A record that does not parse keeps no players: it cannot be loaded either."""
    for game_id, record in connection.execute("SELECT id, record FROM saved_game").fetchall():
        try:
            parsed = json.loads(record)
        except ValueError:
            continue
        players = parsed.get("players") if isinstance(parsed, dict) else None
        if isinstance(players, list):
            connection.execute(
                "UPDATE saved_game SET players = ? WHERE id = ?", (json.dumps(players), game_id)
            )


def _levels_for_legacy_flags(connection: Connection) -> None:
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
Step = str | Callable[[Connection], None]

# Migration N brings a file from schema version N-1 to N. Never edit one that has shipped:
# add the next. The version lives in the table ``schema_version`` (one row). Every step runs on
# both stores; the one phrase they spell differently is rendered by :func:`render` (so a shipped
# step still makes exactly the SQLite schema it always made).
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
    # 6: each saved game's players (JSON), so that a save checks them in its UPDATE's WHERE
    # instead of reading the record back: a game action is one statement in its transaction.
    (
        "ALTER TABLE saved_game ADD COLUMN players TEXT",
        _players_from_records,
    ),
    # 7: a web table's time for each person's turn, in seconds (NULL: no limit).
    ("ALTER TABLE web_table ADD COLUMN turn_seconds INTEGER",),
    # 8: when the turn being played began, and how many turns had ended then: every save that
    # ends a turn sets it, so every process (and one restarted) counts a turn's time from the
    # same moment. NULL for a game saved before: its next save that ends a turn sets it.
    (
        "ALTER TABLE saved_game ADD COLUMN turns_ended INTEGER",
        "ALTER TABLE saved_game ADD COLUMN turn_began TEXT",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

# An id given by the database. SQLite's AUTOINCREMENT never reuses an id (ids order arrivals in
# the Hall of Fame); a PostgreSQL identity never does either.
_SQLITE_ID = "INTEGER PRIMARY KEY AUTOINCREMENT"
_POSTGRES_ID = "INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"


def render(step: str, dialect: str) -> str:
    """A migration statement as the store ``dialect`` spells it.

    >>> render("CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT)", "postgresql")
    'CREATE TABLE t (id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY)'
    >>> render("CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT)", "sqlite")
    'CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT)'
    """
    return step.replace(_SQLITE_ID, _POSTGRES_ID) if dialect == "postgresql" else step


def stored_version(connection: Connection) -> int:
    """The schema version of a database: 0 for a new, empty one."""
    if not connection.has_table("schema_version"):
        return 0
    row = connection.execute("SELECT version FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def newer_schema(where: str, version: int) -> StorageError:
    return StorageError(
        f"{where} was written by a newer kismet-dice (schema {version}, this one knows "
        f"{SCHEMA_VERSION}); update kismet-dice to use it",
        public="the game store was written by a newer kismet-dice",
    )


def upgrade(connection: Connection, where: str, target: int = SCHEMA_VERSION) -> None:
    """Run the migrations from the stored version up to ``target``, inside the caller's transaction.

    The caller holds the store's lock for migrating, so the version read here cannot change
    before the steps are done: servers starting together migrate once.
    """
    version = stored_version(connection)
    if version > SCHEMA_VERSION:
        raise newer_schema(where, version)
    if version == 0:
        connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        connection.execute("INSERT INTO schema_version (version) VALUES (0)")
    for number in range(version + 1, target + 1):
        for step in MIGRATIONS[number - 1]:
            if isinstance(step, str):
                connection.execute(render(step, connection.dialect))
            else:
                step(connection)
        connection.execute("UPDATE schema_version SET version = ?", (number,))


def database_url(database: str | None = None, environ: Mapping[str, str] | None = None) -> str | None:
    """The PostgreSQL URL to use: ``database`` if given, else ``$KISMET_DATABASE_URL``; ``None``
    for the SQLite file. Anything but a ``postgresql://`` (or ``postgres://``) URL is refused.

    >>> database_url(None, {}) is None
    True
    >>> database_url(None, {"KISMET_DATABASE_URL": "postgres://db.example/kismet"})
    'postgres://db.example/kismet'
    >>> database_url("mysql://db.example/kismet", {})
    Traceback (most recent call last):
    ...
    kismet_dice.storage.errors.StorageError: a database URL starts with postgresql:// (mysql:... given)
    """
    url = (
        database
        if database is not None
        else (os.environ if environ is None else environ).get(DATABASE_VARIABLE, "")
    )
    if not url:
        return None
    if not url.startswith(("postgresql://", "postgres://")):
        # Only the scheme is repeated: the rest may hold a password.
        scheme = url.split(":", 1)[0][:20]
        raise StorageError(
            f"a database URL starts with postgresql:// ({scheme}:... given)",
            public="the game store is not configured correctly",
        )
    return url


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


class ServeLock:
    """An exclusive lock on ``<database file>.serve-lock``, held by the one ``kismet serve`` of a
    SQLite store until :meth:`release` or the end of the process (the system drops it then, even
    after a kill). Other kismet commands never take it: they may use the file alongside.
    """

    def __init__(self, database: Path) -> None:
        self.path = database.with_name(database.name + SERVE_LOCK_SUFFIX)
        self._file: IO[bytes] | None = None
        try:
            handle = open(self.path, "ab")  # noqa: SIM115 - held open for the life of the server
        except OSError as error:
            raise StorageError(
                f"cannot create {self.path}: {error.strerror or error}",
                public="the game store cannot be used right now",
            ) from None
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise StorageError(
                f"another kismet serve is using {database}: SQLite is for one server process; "
                "use PostgreSQL (--database) for several",
                public="the game store is in use by another server",
            ) from None
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing the file drops the lock
            self._file = None

    def __enter__(self) -> ServeLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class Listener(ABC):
    """Something that calls back for every game saved by any process, until :meth:`stop`."""

    @abstractmethod
    def wait_until_listening(self, timeout: float) -> bool:
        """Whether it listens (within ``timeout`` seconds): saves committed from then on are told."""

    @abstractmethod
    def stop(self) -> None:
        """Stop listening: the thread ends, waited for a second at most (one stuck in a call to a
        database that does not answer ends with the process)."""


class Claims(ABC):
    """Which games this process plays the computer seats of: one process at a time per game.

    A claim lasts until :meth:`release`, :meth:`close`, or the end of the process (a killed
    process's claims are dropped, so another process may take its games over).
    """

    @abstractmethod
    def claim(self, game_id: int) -> bool:
        """Whether this process holds saved game ``game_id``'s claim now (taking it if it is free)."""

    @abstractmethod
    def release(self, game_id: int) -> None:
        """Give the claim back (nothing if this process does not hold it)."""

    @abstractmethod
    def close(self) -> None:
        """Give every claim back."""


class LocalClaims(Claims):
    """Claims where one process uses the store (SQLite): every claim is this process's."""

    def __init__(self) -> None:
        self.held: set[int] = set()

    def claim(self, game_id: int) -> bool:
        self.held.add(game_id)
        return True

    def release(self, game_id: int) -> None:
        self.held.discard(game_id)

    def close(self) -> None:
        self.held.clear()


class Database(ABC):
    """An open database, already at :data:`SCHEMA_VERSION`: :meth:`read`, :meth:`write`, :meth:`close`.

    ``where`` names it for the person at the machine (a path, or a URL without its password);
    ``path`` is the SQLite file (``None`` on PostgreSQL); ``shared`` says whether several server
    processes may use it at once.
    """

    dialect: ClassVar[str]
    shared: ClassVar[bool]
    where: str
    path: Path | None
    moved_aside: MovedAside | None = None

    @abstractmethod
    def read(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one query."""

    def read_row(self, sql: str, parameters: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """The row of a query that finds one at most (by a key), or ``None``; only whole numbers,
        text and NULL in its columns. The reads a server makes at every turn of a game go here."""
        rows = self.read(sql, parameters)
        return rows[0] if rows else None

    @abstractmethod
    def write(self, work: Callable[[Connection], T]) -> T:
        """Run ``work(connection)`` in one transaction and commit it; if ``work`` raises, nothing is kept."""

    def update_saved(self, sql: str, parameters: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """One ``UPDATE saved_game ... RETURNING ..., id, version`` of one game, kept on its own
        (one statement needs no other in its transaction) and told to other processes: the row,
        or ``None`` if its WHERE matched nothing (see :meth:`Connection.update_saved`)."""
        return self.write(lambda connection: connection.update_saved(sql, parameters))

    @abstractmethod
    def close(self) -> None: ...

    def check_writable(self) -> None:
        """Make a real write that changes nothing; :class:`StorageError` if the store cannot be written.

        A file on a read-only disk (or a read-only file) opens and reads fine: without this,
        the first sign would be the first save failing, in the middle of a game.
        """
        self.write(lambda connection: connection.execute("UPDATE schema_version SET version = version"))

    def lock_for_serving(self) -> ServeLock | None:
        """Claim the store for one server process; ``None`` where several may share it."""
        return None

    def claims(self) -> Claims:
        """This process's claims on games, to play their computer seats once (:class:`Claims`)."""
        return LocalClaims()

    def listen(
        self, callback: Callable[[int, int], None], listening: Callable[[], None] | None = None
    ) -> Listener:
        """Call ``callback(game_id, version)`` for each save committed by any process, from a thread,
        and ``listening()`` each time it (re)starts listening: what was committed before may not
        have been told."""
        raise StorageError(
            f"{self.where} has one server process: there is no other to listen to",
            public="the game store tells no other process of its changes",
        )

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _SQLiteConnection(Connection):
    dialect = "sqlite"

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Cursor:
        return self.raw.execute(sql, parameters)

    def has_table(self, name: str) -> bool:
        found = self.raw.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
        ).fetchone()
        return found is not None

    def lock_table(self, table: str) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already keeps every other writer out."""

    def notify_saved(self, game_id: int, version: int) -> None:
        """Nothing to do: a SQLite store has one server process, which knows its own changes."""


class SQLiteDatabase(Database):
    """An open connection to the database file, already at :data:`SCHEMA_VERSION`.

    Open it with :meth:`open`; use :meth:`read` and :meth:`write`; :meth:`close` it (or use
    ``with``). One object serves one thread.
    """

    dialect = "sqlite"
    shared = False

    def __init__(self, connection: sqlite3.Connection, path: Path, moved_aside: MovedAside | None) -> None:
        self._connection = connection
        self._wrapped = _SQLiteConnection(connection)
        self.path: Path = path
        self.where = str(path)
        self.moved_aside = moved_aside

    @classmethod
    def open(cls, path: Path | None = None) -> SQLiteDatabase:
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

    def read(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one query (a consistent snapshot; never waits for writers)."""
        with self._reporting():
            return _patiently(lambda: self._connection.execute(sql, parameters).fetchall())

    def write(self, work: Callable[[Connection], T]) -> T:
        """Run ``work(connection)`` in one ``BEGIN IMMEDIATE`` transaction and commit it.

        If ``work`` raises, nothing it did is kept. Other processes' writes are waited for.
        """
        with self._reporting():
            return _patiently(lambda: _transaction(self._connection, lambda _: work(self._wrapped)))

    def lock_for_serving(self) -> ServeLock:
        """Claim the file for this server process; :class:`StorageError` if another server holds it."""
        return ServeLock(self.path)

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
    return stored_version(_SQLiteConnection(connection))


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
        raise newer_schema(str(path), version)
    if version >= target:
        return

    def locked_upgrade(connection: sqlite3.Connection) -> None:
        # Read again under the write lock (BEGIN IMMEDIATE): another process may have upgraded meanwhile.
        if schema_version(connection) == 0 and _foreign(connection):
            raise _Damaged("it holds another program's tables")
        upgrade(_SQLiteConnection(connection), str(path), target)

    _patiently(lambda: _transaction(connection, locked_upgrade))


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
