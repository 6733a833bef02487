"""Durable local storage for every interface: the Hall of Fame and saved games, in one SQLite file.

Imports only :mod:`kismet_dice.rules` and :mod:`kismet_dice.game`. Open it with
:meth:`Storage.open`; the file is ``$KISMET_HOME/kismet.sqlite3``, or ``kismet.sqlite3`` in the
user data directory for "kismet-dice" when ``KISMET_HOME`` is not set.

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

from pathlib import Path

from kismet_dice.storage.database import (
    APP_NAME,
    FILE_NAME,
    HOME_VARIABLE,
    SCHEMA_VERSION,
    Database,
    MovedAside,
    data_directory,
    database_path,
)
from kismet_dice.storage.errors import (
    DEFAULT_PUBLIC,
    NotEligible,
    SavedGameError,
    StorageError,
    VersionConflict,
)
from kismet_dice.storage.hall import HALL_SIZE, HallEntry, HallOfFame, qualifies
from kismet_dice.storage.saved_games import (
    WEB_OWNER,
    HallAnswer,
    SavedGame,
    SavedGames,
    UnfinishedGames,
    UnreadableGame,
)
from kismet_dice.storage.settings import Settings
from kismet_dice.storage.tables import WebTables


class Storage:
    """The Hall of Fame and the saved games of one database file.

    ``moved_aside`` is set when a damaged file was found and moved away on opening: an
    interface should tell the person (:attr:`MovedAside.message`). One object serves one thread.
    """

    def __init__(self, database: Database) -> None:
        self.database = database
        self.hall = HallOfFame(database)
        self.games = SavedGames(database)
        self.settings = Settings(database)
        self.tables = WebTables(database)

    @classmethod
    def open(cls, home: Path | str | None = None) -> Storage:
        """Open the storage in directory ``home`` (default :func:`data_directory`), creating it.

        Raises :class:`StorageError` when that place cannot be written.
        """
        path = database_path() if home is None else Path(home) / FILE_NAME
        return cls(Database.open(path))

    def check_writable(self) -> None:
        """Make a real write that changes nothing, so a file that cannot be written is found at once.

        Raises :class:`StorageError` (read-only, in words) when it fails: an existing file on a
        read-only disk opens and reads fine, and would otherwise fail only at the first save.
        """
        self.database.check_writable()

    @property
    def path(self) -> Path:
        """The database file."""
        return self.database.path

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
    "DEFAULT_PUBLIC",
    "FILE_NAME",
    "HALL_SIZE",
    "HOME_VARIABLE",
    "SCHEMA_VERSION",
    "WEB_OWNER",
    "Database",
    "HallAnswer",
    "HallEntry",
    "HallOfFame",
    "MovedAside",
    "NotEligible",
    "SavedGame",
    "SavedGameError",
    "SavedGames",
    "Settings",
    "Storage",
    "StorageError",
    "UnfinishedGames",
    "UnreadableGame",
    "VersionConflict",
    "WebTables",
    "data_directory",
    "database_path",
    "qualifies",
]
