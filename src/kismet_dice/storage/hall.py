"""The Hall of Fame: the ten best game totals, with name, date and time, and number of players.

A total enters when the list has fewer than ten entries or it beats the lowest one; a total
equal to an entry already there ranks below it. Computer players and games in which anyone
asked the computer for advice never enter (RULES.md, "Hall of Fame").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from kismet_dice.game import check_name
from kismet_dice.storage.database import Connection, Database
from kismet_dice.storage.errors import NotEligible, StorageError

HALL_SIZE = 10

_TOP = "SELECT id, name, total, date, players FROM hall_of_fame ORDER BY total DESC, id ASC LIMIT ?"


@dataclass(frozen=True)
class HallEntry:
    """One line of the Hall of Fame; ``rank`` counts from 1, ``date`` is when the game ended."""

    rank: int
    name: str
    total: int
    date: datetime
    players: int

    def as_json(self) -> dict[str, object]:
        """The entry as a JSON object, the date in ISO 8601 with its offset.

        >>> HallEntry(1, "Ann", 312, datetime(2024, 5, 1, 14, 3, tzinfo=UTC), 2).as_json()
        {'rank': 1, 'name': 'Ann', 'total': 312, 'date': '2024-05-01T14:03:00+00:00', 'players': 2}
        """
        return {
            "rank": self.rank,
            "name": self.name,
            "total": self.total,
            "date": self.date.isoformat(),
            "players": self.players,
        }


def qualifies(total: int, totals: Iterable[int]) -> bool:
    """Whether ``total`` enters a Hall of Fame holding ``totals``: fewer than ten, or beats the lowest.

    >>> qualifies(100, [300, 250])
    True
    >>> ten = [300, 290, 280, 270, 260, 250, 240, 230, 220, 210]
    >>> qualifies(211, ten), qualifies(210, ten), qualifies(0, ten[:9])
    (True, False, True)
    """
    best = sorted(totals, reverse=True)[:HALL_SIZE]
    return len(best) < HALL_SIZE or total > best[-1]


def entering_total(totals: Iterable[int]) -> int:
    """The least total that enters a Hall of Fame holding ``totals`` (what :func:`qualifies` says):
    one more than the tenth entry, or 0 while there are fewer than ten (any total enters).

    >>> ten = [300, 290, 280, 270, 260, 250, 240, 230, 220, 210]
    >>> entering_total(ten), entering_total(ten[:9]), qualifies(entering_total(ten), ten)
    (211, 0, True)
    """
    best = sorted(totals, reverse=True)[:HALL_SIZE]
    return best[-1] + 1 if len(best) == HALL_SIZE else 0


@dataclass(frozen=True)
class Candidate:
    """A checked total waiting to enter: made before any write, so a refusal changes nothing."""

    name: str
    total: int
    players: int
    date: datetime

    @classmethod
    def checked(
        cls,
        name: str,
        total: int,
        *,
        players: int,
        computer: bool,
        assisted: bool,
        when: datetime | None = None,
    ) -> Candidate:
        """The candidate, or :class:`NotEligible`, ``IllegalAction`` (a bad name) or ``ValueError``."""
        if computer:
            raise NotEligible("computer players do not enter the Hall of Fame")
        if assisted:
            raise NotEligible("a game played with the computer's advice does not enter the Hall of Fame")
        checked = check_name(name)
        if isinstance(total, bool) or not isinstance(total, int) or total < 0:
            raise ValueError(f"a game total is a whole number from 0, not {total!r}")
        if isinstance(players, bool) or not isinstance(players, int) or players < 1:
            raise ValueError(f"a game has at least one player, not {players!r}")
        date = (when or datetime.now(UTC)).astimezone(UTC).replace(microsecond=0)
        return cls(checked, total, players, date)

    def enter(self, connection: Connection) -> HallEntry | None:
        """Enter the total if it still qualifies, inside the caller's write transaction.

        Whoever calls it inside a larger write (such as marking the seat asked) keeps the entry
        and the rest together: both are kept, or neither. The list is locked against other
        writers first, so "qualifies, insert, trim to ten" is decided on the list as it stays.
        """
        connection.lock_table("hall_of_fame")
        rows = connection.execute(_TOP, (HALL_SIZE,)).fetchall()
        if not qualifies(self.total, (row[2] for row in rows)):
            return None
        [(new_id,)] = connection.execute(
            "INSERT INTO hall_of_fame (name, total, date, players) VALUES (?, ?, ?, ?) RETURNING id",
            (self.name, self.total, self.date.isoformat(), self.players),
        ).fetchall()
        # Keep the list at ten: whatever falls off the bottom is gone.
        connection.execute(
            "DELETE FROM hall_of_fame WHERE id NOT IN (SELECT id FROM hall_of_fame "
            "ORDER BY total DESC, id ASC LIMIT ?)",
            (HALL_SIZE,),
        )
        # Every entry already there is older, so it ranks above on a tie.
        (above,) = connection.execute(
            "SELECT COUNT(*) FROM hall_of_fame WHERE total >= ? AND id != ?", (self.total, new_id)
        ).fetchone()
        return HallEntry(int(above) + 1, self.name, self.total, self.date, self.players)


class HallOfFame:
    """The Hall of Fame kept in a :class:`Database`."""

    def __init__(self, database: Database) -> None:
        self._database = database

    def entries(self) -> tuple[HallEntry, ...]:
        """The list, best first."""
        rows = self._database.read(_TOP, (HALL_SIZE,))
        return tuple(self._entry(rank, row) for rank, row in enumerate(rows, 1))

    def qualifies(self, total: int) -> bool:
        """Whether ``total`` would enter the list now (another game may change that before a submit)."""
        return qualifies(total, (entry.total for entry in self.entries()))

    def submit(
        self,
        name: str,
        total: int,
        *,
        players: int,
        computer: bool,
        assisted: bool,
        when: datetime | None = None,
    ) -> HallEntry | None:
        """Enter ``total`` under ``name`` if it qualifies; the new entry, or ``None`` if it does not.

        ``computer`` (the seat is a computer player) and ``assisted`` (someone asked for advice)
        must be stated; either being true raises :class:`NotEligible`. A bad name raises
        ``IllegalAction`` (a ``ValueError``) with a message for the person. Qualifying is decided
        again under the write lock, so ten entries stay the ten best however many games end at once.
        """
        candidate = Candidate.checked(
            name, total, players=players, computer=computer, assisted=assisted, when=when
        )
        return self._database.write(candidate.enter)

    def clear(self) -> int:
        """Empty the list; returns how many entries were removed."""

        def empty(connection: Connection) -> int:
            return connection.execute("DELETE FROM hall_of_fame").rowcount

        return self._database.write(empty)

    def _entry(self, rank: int, row: tuple[object, ...]) -> HallEntry:
        _, name, total, date, players = row
        try:
            when = datetime.fromisoformat(str(date))
        except ValueError:
            raise StorageError(
                f"the Hall of Fame in {self._database.where} holds a bad date {date!r}",
                public="the Hall of Fame holds an entry that cannot be read",
            ) from None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        return HallEntry(rank, str(name), int(str(total)), when, int(str(players)))
