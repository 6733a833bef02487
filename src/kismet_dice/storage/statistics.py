"""The finished games statistics are made of: each one's record and who sat at each seat.

Only reading here; what the games add up to is computed from these rows in
:mod:`kismet_dice.session.statistics`, the same way on either store.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from kismet_dice.storage.database import Database
from kismet_dice.storage.errors import SavedGameError
from kismet_dice.storage.saved_games import _stored_flags


@dataclass(frozen=True)
class FinishedGame:
    """One finished game as stored: its JSON record (not replayed here), each seat's computer level
    (``None`` for a person), whether anyone asked for advice, and when it ended."""

    id: int
    record: str
    levels: tuple[str | None, ...]
    assisted: bool
    finished: datetime


class FinishedGames:
    """The finished games kept in a :class:`Database`."""

    def __init__(self, database: Database) -> None:
        self._database = database

    def all(self) -> tuple[FinishedGame, ...]:
        """Every finished game, in the order they ended (the first first).

        A row whose seats cannot be read is left out: it cannot be told whose game it was.
        """
        rows = self._database.read(
            "SELECT id, record, computer, assisted, finished FROM saved_game "
            "WHERE finished IS NOT NULL ORDER BY finished ASC, id ASC"
        )
        games: list[FinishedGame] = []
        for game_id, record, computer, assisted, finished in rows:
            try:
                flags = _stored_flags(computer)
                when = datetime.fromisoformat(str(finished))
            except (SavedGameError, ValueError):
                continue
            if when.tzinfo is None:
                when = when.replace(tzinfo=UTC)
            levels = tuple(flag if isinstance(flag, str) else None for flag in flags)
            games.append(FinishedGame(int(game_id), str(record), levels, bool(assisted), when))
        return tuple(games)
