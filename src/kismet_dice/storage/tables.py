"""Games at the web server's tables: the public table id and a digest of each seat's token.

The game itself is a saved game like any other, owned by ``"web"`` so no other interface offers
it for resuming; its version, assisted mark and Hall of Fame answers are the saved game's. The
table adds what only the server needs: its public id, and one digest per seat (never the token
itself, so the file cannot be used to take a seat; a computer seat's digest is empty).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime

from kismet_dice.game import Game
from kismet_dice.storage.database import Connection, Database
from kismet_dice.storage.errors import SavedGameError
from kismet_dice.storage.saved_games import WEB_OWNER, SavedGame, starter


class WebTables:
    """The web tables kept in a :class:`Database`.

    >>> import tempfile
    >>> from kismet_dice.game import ScriptedDice
    >>> from kismet_dice.storage import Storage
    >>> with tempfile.TemporaryDirectory() as home, Storage.open(home) as storage:
    ...     game = Game(["Ann"], rng=ScriptedDice([1]))
    ...     saved = storage.tables.create("t1", game, ["digest"], [None])
    ...     storage.tables.find("t1") == (saved.id, ("digest",)), saved.owner, storage.tables.unfinished()
    (True, 'web', ('t1',))
    """

    def __init__(self, database: Database) -> None:
        self._database = database

    def create(
        self,
        table_id: str,
        game: Game,
        seat_digests: Sequence[str],
        levels: Sequence[str | None],
        turn_seconds: int | None = None,
    ) -> SavedGame:
        """Save a new game owned by the web server and its table, in one transaction.

        ``seat_digests`` and ``levels`` give one entry per seat; ``turn_seconds`` is the time for
        each person's turn (``None``: no limit). Raises ``ValueError`` if they do not, or if there
        is a table ``table_id`` already.
        """
        digests = list(seat_digests)
        if len(digests) != len(game.names) or not all(isinstance(digest, str) for digest in digests):
            raise ValueError(f"a table has one seat digest per player: {len(game.names)} of them")
        insert_game = starter(game, levels, assisted=False, owner=WEB_OWNER)

        def insert(connection: Connection) -> SavedGame:
            if connection.execute("SELECT 1 FROM web_table WHERE id = ?", (table_id,)).fetchone():
                raise ValueError(f"there is a table {table_id!r} already")
            saved = insert_game(connection)
            connection.execute(
                "INSERT INTO web_table (id, saved_game, seat_digests, turn_seconds) VALUES (?, ?, ?, ?)",
                (table_id, saved.id, json.dumps(digests), turn_seconds),
            )
            return saved

        return self._database.write(insert)

    def find(self, table_id: str) -> tuple[int, tuple[str, ...]] | None:
        """The saved game id and the seat digests of table ``table_id``, or ``None`` if there is none.

        Raises :class:`SavedGameError` if the digests kept cannot be read.
        """
        row = self._database.read_row(
            "SELECT saved_game, seat_digests FROM web_table WHERE id = ?", (table_id,)
        )
        if row is None:
            return None
        saved_game, text = row
        try:
            digests = json.loads(str(text))
        except ValueError:
            digests = None
        if not isinstance(digests, list) or not all(isinstance(digest, str) for digest in digests):
            raise SavedGameError(f"table {table_id!r} has seat digests that cannot be read")
        return int(saved_game), tuple(digests)

    def turn_seconds(self, table_id: str) -> int | None:
        """The time for each person's turn at table ``table_id``, in seconds; ``None``: no limit
        (or no such table)."""
        row = self._database.read_row("SELECT turn_seconds FROM web_table WHERE id = ?", (table_id,))
        return None if row is None or row[0] is None else int(row[0])

    def unfinished(self) -> tuple[str, ...]:
        """The ids of the tables whose game is not over, the longest untouched first."""
        rows = self._database.read(
            "SELECT web_table.id FROM web_table JOIN saved_game ON saved_game.id = web_table.saved_game "
            "WHERE saved_game.finished IS NULL ORDER BY saved_game.saved, saved_game.id"
        )
        return tuple(str(row[0]) for row in rows)

    def with_computers(self) -> tuple[tuple[str, int, int], ...]:
        """``(table id, saved game id, version)`` of each unfinished table with a computer seat."""
        # The levels are kept as a JSON list: a computer's level is a string, a person's null.
        rows = self._database.read(
            "SELECT web_table.id, saved_game.id, saved_game.version FROM web_table "
            "JOIN saved_game ON saved_game.id = web_table.saved_game "
            "WHERE saved_game.finished IS NULL AND saved_game.computer LIKE '%\"%' "
            "ORDER BY saved_game.saved, saved_game.id"
        )
        return tuple((str(row[0]), int(row[1]), int(row[2])) for row in rows)

    def expire(self, before: datetime) -> int:
        """Delete the unfinished web games last saved before ``before``, with their tables; how many.

        Finished games, the Hall of Fame and games of other owners (a terminal player's) stay.
        Each game goes in one statement that checks it is still untouched, so a game saved
        meanwhile stays, and two servers expiring at once delete nothing twice.
        """
        if before.tzinfo is None:
            raise ValueError("a moment to expire games before carries its time zone")
        # Saved moments are kept as UTC ISO text to the second, which orders as the moments do.
        moment = before.astimezone(UTC).replace(microsecond=0).isoformat()

        def delete(connection: Connection) -> int:
            expired = connection.execute(
                "DELETE FROM saved_game WHERE owner = ? AND finished IS NULL AND saved < ? RETURNING id",
                (WEB_OWNER, moment),
            ).fetchall()
            # PostgreSQL's foreign key deletes the tables with their games; SQLite's is not enforced.
            connection.execute("DELETE FROM web_table WHERE saved_game NOT IN (SELECT id FROM saved_game)")
            return len(expired)

        return self._database.write(delete)
