"""Where the web tables live: the project's storage, written after every action.

The game itself is a saved game (the engine's record, as every interface keeps it); the table
adds its public id, a digest of each seat token (never the token itself, so the database cannot
be used to take a seat) and which seats the Hall of Fame prompt has already been through. A
computer seat has no token: its digest is empty, which no token's digest matches. Each computer
seat's level and the assisted mark are the saved game's, as for every interface.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from kismet_dice.game import DiceSource, Game, RecordError
from kismet_dice.session import Session, hall_candidates, seat_levels
from kismet_dice.storage import HallEntry, SavedGameError, Storage, StorageError


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


def _strings(text: object) -> tuple[str, ...]:
    value = json.loads(str(text))
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"not a list of strings: {text!r}")
    return tuple(value)


def _seats(text: object) -> tuple[int, ...]:
    value = json.loads(str(text))
    if not isinstance(value, list) or not all(type(item) is int for item in value):
        raise ValueError(f"not a list of seats: {text!r}")
    return tuple(value)


class WebTables:
    """The web tables and the Hall of Fame in the storage at ``home`` (default: the user's data).

    The storage serves one thread per connection, so each thread that asks opens its own;
    the server's event loop is one thread, and tests may use others.
    """

    def __init__(self, home: Path | None = None) -> None:
        self._home = home
        self._local = threading.local()
        self._storage()  # fail now, not at the first request, if the place cannot be used

    @property
    def path(self) -> Path:
        return self._storage().path

    def _storage(self) -> Storage:
        storage: Storage | None = getattr(self._local, "storage", None)
        if storage is None:
            try:
                storage = Storage.open(self._home)
            except StorageError as error:
                raise StoreError(str(error)) from None
            self._local.storage = storage
        return storage

    def create(
        self, table_id: str, game: Game, seat_digests: Sequence[str], levels: Sequence[str | None]
    ) -> None:
        storage = self._storage()
        try:
            saved = storage.games.start(game, levels=levels)
            try:
                storage.database.write(
                    lambda connection: connection.execute(
                        "INSERT INTO web_table (id, saved_game, seat_digests) VALUES (?, ?, ?)",
                        (table_id, saved.id, json.dumps(list(seat_digests))),
                    )
                )
            except BaseException:
                storage.games.discard(saved.id)
                raise
        except StorageError as error:
            raise StoreError(str(error)) from None

    def _row(self, table_id: str) -> tuple[int, str, str] | None:
        rows = self._storage().database.read(
            "SELECT saved_game, seat_digests, hall_asked FROM web_table WHERE id = ?", (table_id,)
        )
        return (int(rows[0][0]), str(rows[0][1]), str(rows[0][2])) if rows else None

    def save(self, table_id: str, game: Game, *, assisted: bool = False) -> None:
        """Save the game; ``assisted=True`` marks it assisted for good."""
        try:
            row = self._row(table_id)
            if row is None:
                raise StoreError(f"there is no game {table_id!r} to save")
            self._storage().games.save(row[0], game, assisted=assisted)
        except (StorageError, SavedGameError) as error:
            raise StoreError(str(error)) from None

    def load(self, table_id: str, rng: DiceSource) -> StoredTable | None:
        try:
            row = self._row(table_id)
            if row is None:
                return None
            saved_id, digests, asked = row
            # A finished game is no longer offered for resuming, but its table still shows it.
            saved, game = self._storage().games.load(saved_id, rng, finished=True)
            levels = tuple(seat_levels(saved))
            return StoredTable(game, _strings(digests), _seats(asked), saved.assisted, levels)
        except (StorageError, SavedGameError, RecordError, ValueError) as error:
            raise StoreError(f"game {table_id} cannot be loaded: {error}") from None

    def mark_asked(self, table_id: str, seats: Sequence[int]) -> None:
        """Record that these seats have been through the Hall of Fame prompt."""
        try:
            self._storage().database.write(
                lambda connection: connection.execute(
                    "UPDATE web_table SET hall_asked = ? WHERE id = ?", (json.dumps(sorted(seats)), table_id)
                )
            )
        except StorageError as error:
            raise StoreError(str(error)) from None

    def unfinished(self) -> tuple[str, ...]:
        """The ids of the tables whose game is not over, so their computers can play on."""
        try:
            rows = self._storage().database.read(
                "SELECT web_table.id FROM web_table JOIN saved_game ON saved_game.id = web_table.saved_game "
                "WHERE saved_game.finished IS NULL ORDER BY saved_game.saved"
            )
        except StorageError as error:
            raise StoreError(str(error)) from None
        return tuple(str(row[0]) for row in rows)

    def hall_entries(self) -> tuple[HallEntry, ...]:
        try:
            return self._storage().hall.entries()
        except StorageError as error:
            raise StoreError(str(error)) from None

    def hall_candidates(self, session: Session) -> tuple[int, ...]:
        """The seats whose totals qualify for the Hall of Fame: never a computer's, none if assisted."""
        try:
            return hall_candidates(session, self._storage())
        except StorageError as error:
            raise StoreError(str(error)) from None

    def enter_hall(self, name: str, total: int, players: int) -> HallEntry | None:
        """Enter a human's total; refused names raise ``ValueError`` with words for the person."""
        try:
            return self._storage().hall.submit(name, total, players=players, computer=False, assisted=False)
        except StorageError as error:
            raise StoreError(str(error)) from None
