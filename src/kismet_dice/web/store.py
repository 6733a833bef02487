"""Where the web tables live: the project's storage, written after every action.

The game itself is a saved game (the engine's record, as every interface keeps it); the table
adds its public id, a digest of each seat token (never the token itself, so the database cannot
be used to take a seat); the saved game keeps which seats the Hall of Fame prompt has been through. A
computer seat has no token: its digest is empty, which no token's digest matches. Each computer
seat's level and the assisted mark are the saved game's, as for every interface.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from kismet_dice.game import DiceSource, Game, RecordError
from kismet_dice.session import Session, hall_candidates, seat_levels
from kismet_dice.storage import HallEntry, SavedGameError, Storage, StorageError

logger = logging.getLogger(__name__)


class StoreError(Exception):
    """The tables cannot be read or written; the message says where and why."""


def token_digest(token: str) -> str:
    """The digest kept for a seat token.

    >>> len(token_digest("abc"))
    64
    """
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class StoredTable:
    """A table as loaded: the game, one seat-token digest per seat, the seats asked for the Hall of Fame,
    whether it is assisted, and each seat's computer level (``None`` for a person)."""

    game: Game
    seat_digests: tuple[str, ...]
    hall_asked: tuple[int, ...]
    assisted: bool
    levels: tuple[str | None, ...]


class WebTables:
    """The web tables and the Hall of Fame in the storage at ``home`` (default: the user's data).

    The storage serves one thread per connection, so each thread that asks opens its own;
    the server's event loop is one thread, and tests may use others. Errors after start-up
    carry the storage's public words only: they reach clients, who must not learn the path.
    """

    def __init__(self, home: Path | None = None) -> None:
        self._home = home
        self._local = threading.local()
        # The version of each table's saved game as last read or written here: every save names it.
        self._versions: dict[str, int] = {}
        try:
            # Fail now, not at the first request, if the place cannot be used or written; the
            # person starting the server is told the path.
            self._open().check_writable()
        except StorageError as error:
            raise StoreError(str(error)) from None

    @property
    def path(self) -> Path:
        return self._storage().path

    def _open(self) -> Storage:
        storage: Storage | None = getattr(self._local, "storage", None)
        if storage is None:
            storage = Storage.open(self._home)
            self._local.storage = storage
        return storage

    def _storage(self) -> Storage:
        try:
            return self._open()
        except StorageError as error:
            raise _public(error) from None

    def create(
        self, table_id: str, game: Game, seat_digests: Sequence[str], levels: Sequence[str | None]
    ) -> None:
        try:
            saved = self._storage().tables.create(table_id, game, seat_digests, levels)
        except StorageError as error:
            raise _public(error) from None
        self._versions[table_id] = saved.version

    def save(self, table_id: str, game: Game, *, assisted: bool = False) -> None:
        """Save the game; ``assisted=True`` marks it assisted for good."""
        try:
            storage = self._storage()
            found = storage.tables.find(table_id)
            version = self._versions.get(table_id)
            if found is None or version is None:
                raise StoreError(f"there is no game {table_id!r} to save")
            saved = storage.games.save(found[0], game, version=version, assisted=assisted)
        except SavedGameError as error:
            raise StoreError(str(error)) from None
        except StorageError as error:
            raise _public(error) from None
        self._versions[table_id] = saved.version

    def load(self, table_id: str, rng: DiceSource) -> StoredTable | None:
        try:
            storage = self._storage()
            found = storage.tables.find(table_id)
            if found is None:
                return None
            saved_id, digests = found
            # A finished game is no longer offered for resuming, but its table still shows it.
            saved, game = storage.games.load(saved_id, rng, finished=True)
            levels = tuple(seat_levels(saved))
        except (SavedGameError, RecordError, ValueError) as error:
            raise StoreError(f"game {table_id} cannot be loaded: {error}") from None
        except StorageError as error:
            raise _public(error) from None
        self._versions[table_id] = saved.version
        return StoredTable(game, digests, saved.hall_asked, saved.assisted, levels)

    def answer_hall(
        self, table_id: str, seat: int, name: str | None, total: int, players: int
    ) -> HallEntry | None:
        """Enter a human's total under ``name`` (``None`` declines) and mark the seat asked, in one write.

        A refused name raises ``ValueError`` with words for the person, and nothing is written.
        """
        try:
            storage = self._storage()
            found = storage.tables.find(table_id)
            version = self._versions.get(table_id)
            if found is None or version is None:
                raise StoreError(f"there is no game {table_id!r}")
            answer = storage.games.answer_hall(
                found[0], seat, name, version=version, total=total, players=players
            )
        except SavedGameError as error:
            raise StoreError(str(error)) from None
        except StorageError as error:
            raise _public(error) from None
        self._versions[table_id] = answer.version
        return answer.entry

    def unfinished(self) -> tuple[str, ...]:
        """The ids of the tables whose game is not over, so their computers can play on."""
        try:
            return self._storage().tables.unfinished()
        except StorageError as error:
            raise _public(error) from None

    def hall_entries(self) -> tuple[HallEntry, ...]:
        try:
            return self._storage().hall.entries()
        except StorageError as error:
            raise _public(error) from None

    def hall_candidates(self, session: Session) -> tuple[int, ...]:
        """The seats whose totals qualify for the Hall of Fame: never a computer's, none if assisted."""
        try:
            return hall_candidates(session, self._storage())
        except StorageError as error:
            raise _public(error) from None


def _public(error: StorageError) -> StoreError:
    """The error in words for a client; the full message, with the path, goes to the server's log."""
    logger.warning("storage: %s", error)
    return StoreError(error.public)
