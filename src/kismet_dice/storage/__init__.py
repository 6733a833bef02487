"""Durable storage for every interface: the Hall of Fame and saved games.

Imports only :mod:`kismet_dice.rules` and :mod:`kismet_dice.game`. Open it with
:meth:`Storage.open`. By default the store is one SQLite file, ``$KISMET_HOME/kismet.sqlite3``, or
``kismet.sqlite3`` in the user data directory for "kismet-dice" when ``KISMET_HOME`` is not set.
A site's store is a PostgreSQL database, named by a ``postgresql://`` URL (``database=``, or
``$KISMET_DATABASE_URL``); the schema and everything stored are the same.

>>> import tempfile
>>> from kismet_dice.game import Game, ScriptedDice
>>> with tempfile.TemporaryDirectory() as home, Storage.open(home) as storage:
...     game = Game(["Ann"], rng=ScriptedDice([3, 6, 6, 6, 6, 6]))
...     saved = storage.games.start(game)
...     _ = game.roll()
...     saved = storage.games.save(saved.id, game, version=saved.version)
...     [summary.describe() for summary in storage.games.unfinished().games]
...     storage.hall.submit("Ann", 80, players=1, computer=False, assisted=False).rank
['Ann has 0; round 1, Ann to play']
1
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kismet_dice.storage.database import (
    APP_NAME,
    DATABASE_VARIABLE,
    FILE_NAME,
    HOME_VARIABLE,
    SCHEMA_VERSION,
    Claims,
    Connection,
    Database,
    Listener,
    LocalClaims,
    MovedAside,
    ServeLock,
    SQLiteDatabase,
    data_directory,
    database_path,
    database_url,
)
from kismet_dice.storage.errors import (
    DEFAULT_PUBLIC,
    NotEligible,
    SavedGameError,
    StorageError,
    VersionConflict,
)
from kismet_dice.storage.hall import HALL_SIZE, HallEntry, HallOfFame, entering_total, qualifies
from kismet_dice.storage.saved_games import (
    WEB_OWNER,
    HallAnswer,
    SavedGame,
    SavedGames,
    UnfinishedGames,
    UnreadableGame,
)
from kismet_dice.storage.settings import Settings
from kismet_dice.storage.statistics import FinishedGame, FinishedGames
from kismet_dice.storage.tables import WebTables


class Storage:
    """The Hall of Fame and the saved games of one store.

    ``moved_aside`` is set when a damaged file was found and moved away on opening: an
    interface should tell the person (:attr:`MovedAside.message`). On SQLite one object serves
    one thread; on PostgreSQL (:attr:`shared`) one object serves every thread of a process,
    from its connection pool.
    """

    def __init__(self, database: Database) -> None:
        self.database = database
        self.hall = HallOfFame(database)
        self.games = SavedGames(database)
        self.settings = Settings(database)
        self.tables = WebTables(database)
        self.finished = FinishedGames(database)

    @classmethod
    def open(cls, home: Path | str | None = None, *, database: str | None = None) -> Storage:
        """Open the store, creating it and bringing its schema up to date.

        ``database`` is a site's PostgreSQL URL (``postgresql://`` or ``postgres://``). Without
        one, and without ``home``, ``$KISMET_DATABASE_URL`` is used when set; otherwise the store
        is the SQLite file in directory ``home`` (default :func:`data_directory`). Raises
        :class:`StorageError` when that store cannot be reached or written, or the URL is not one.
        """
        url = database_url(database) if database is not None or home is None else None
        if url is not None:
            from kismet_dice.storage.postgres import PostgresDatabase  # psycopg only when asked for

            return cls(PostgresDatabase.open(url))
        path = database_path() if home is None else Path(home) / FILE_NAME
        return cls(SQLiteDatabase.open(path))

    def check_writable(self) -> None:
        """Make a real write that changes nothing, so a file that cannot be written is found at once.

        Raises :class:`StorageError` (read-only, in words) when it fails: an existing file on a
        read-only disk opens and reads fine, and would otherwise fail only at the first save.
        """
        self.database.check_writable()

    def lock_for_serving(self) -> ServeLock | None:
        """Claim a SQLite store for this one server process (held until released or the process
        ends); :class:`StorageError` in one line if another ``kismet serve`` holds it. ``None`` on
        PostgreSQL, where any number of servers share the store."""
        return self.database.lock_for_serving()

    def listen(
        self, callback: Callable[[int, int], None], listening: Callable[[], None] | None = None
    ) -> Listener:
        """Call ``callback(game_id, version)``, from a thread, whenever any process commits a write
        of a saved game, and ``listening()`` each time listening (re)starts (what came before may
        not have been told); stop it with :meth:`Listener.stop`. PostgreSQL only (:attr:`shared`):
        on SQLite it raises :class:`StorageError`."""
        return self.database.listen(callback, listening)

    def claims(self) -> Claims:
        """This process's claims on games, so that one process at a time plays a game's computer
        seats; a process that ends (even killed) drops its claims. On SQLite (one server process)
        every claim is granted."""
        return self.database.claims()

    @property
    def shared(self) -> bool:
        """Whether several server processes may use this store at once (PostgreSQL)."""
        return self.database.shared

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.database.dialect

    @property
    def path(self) -> Path | None:
        """The SQLite database file; ``None`` on PostgreSQL."""
        return self.database.path

    @property
    def where(self) -> str:
        """The store named for the person at the machine: the file, or the URL without its password."""
        return self.database.where

    @property
    def moved_aside(self) -> MovedAside | None:
        return self.database.moved_aside

    def close(self) -> None:
        self.database.close()

    def __enter__(self) -> Storage:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = [
    "APP_NAME",
    "DATABASE_VARIABLE",
    "DEFAULT_PUBLIC",
    "FILE_NAME",
    "HALL_SIZE",
    "HOME_VARIABLE",
    "SCHEMA_VERSION",
    "WEB_OWNER",
    "Claims",
    "Connection",
    "Database",
    "FinishedGame",
    "FinishedGames",
    "HallAnswer",
    "HallEntry",
    "HallOfFame",
    "Listener",
    "LocalClaims",
    "MovedAside",
    "NotEligible",
    "SQLiteDatabase",
    "SavedGame",
    "SavedGameError",
    "SavedGames",
    "ServeLock",
    "Settings",
    "Storage",
    "StorageError",
    "UnfinishedGames",
    "UnreadableGame",
    "VersionConflict",
    "WebTables",
    "data_directory",
    "database_path",
    "database_url",
    "entering_total",
    "qualifies",
]
