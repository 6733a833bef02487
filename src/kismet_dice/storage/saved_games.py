"""Saved games: the engine's JSON record of a game, written after every action.

A game is saved whole each time in one transaction, so what loads is always the game as of
its last complete action. When a saved game ends it is marked finished and no longer offered.
Loading replays the record through the rules; a record that fails is reported, never loaded.
Besides the record a saved game carries what the engine does not know: each seat's computer
level (a person has none), whether anyone asked the computer for advice ("assisted"; both keep
a game out of the Hall of Fame), who keeps it (``owner``: ``None`` for this machine's own
players, ``"web"`` for the web server), and the seats already through the Hall of Fame prompt.

Every write of a game adds one to its ``version``, and every write names the version it was
based on: a write based on an older read is refused with :class:`VersionConflict` and changes
nothing, so two processes on one file never silently undo each other's actions.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from kismet_dice.game import DiceSource, Game, Record, RecordError, Resigned, Scored
from kismet_dice.storage.database import Connection, Database
from kismet_dice.storage.errors import NotEligible, SavedGameError, VersionConflict
from kismet_dice.storage.hall import Candidate, HallEntry

# The owner of a game played at the web server; a game of this machine's players has none.
WEB_OWNER = "web"


@dataclass(frozen=True)
class SavedGame:
    """What a person needs to pick an unfinished game to resume, and what the Hall of Fame needs.

    ``computer[seat]`` is true for a computer player, and ``levels[seat]`` is its level
    (``None`` for a person); ``current_player`` is ``None`` once over. ``version`` is the one
    to name in the next write; ``owner`` is ``None`` for this machine's own players;
    ``hall_asked`` holds the seats already through the Hall of Fame prompt.
    """

    id: int
    names: tuple[str, ...]
    computer: tuple[bool, ...]
    assisted: bool
    started: datetime
    saved: datetime
    round: int
    current_player: int | None
    totals: tuple[int, ...]
    levels: tuple[str | None, ...]
    version: int
    owner: str | None
    hall_asked: tuple[int, ...]
    turn_began: datetime | None = None
    """When the turn being played began (``None`` for a game last saved before this was kept, until
    a save ends a turn): what a table with a time per turn counts from."""

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats of the human players."""
        return tuple(seat for seat, is_computer in enumerate(self.computer) if not is_computer)

    def describe(self) -> str:
        """One line for a list of games to resume.

        >>> when = datetime(2024, 5, 1, 14, 3, tzinfo=UTC)
        >>> seats = dict(names=("Ann", "Bob"), computer=(False, True), levels=(None, "easy"))
        >>> SavedGame(7, **seats, assisted=False, started=when, saved=when, round=4, current_player=1,
        ...           totals=(120, 98), version=3, owner=None, hall_asked=()).describe()
        'Ann has 120, Bob (computer) has 98; round 4, Bob to play'
        """
        players = ", ".join(
            f"{name}{' (computer)' if self.computer[seat] else ''} has {self.totals[seat]}"
            for seat, name in enumerate(self.names)
        )
        turn = "over" if self.current_player is None else f"{self.names[self.current_player]} to play"
        return f"{players}; round {self.round}, {turn}"


@dataclass(frozen=True)
class HallAnswer:
    """What answering the Hall of Fame prompt for one seat did.

    ``entry`` is the new Hall of Fame line (``None`` when the seat declined or no longer
    qualifies); ``version`` is the saved game's new version and ``hall_asked`` its seats asked.
    """

    entry: HallEntry | None
    version: int
    hall_asked: tuple[int, ...]


@dataclass(frozen=True)
class UnreadableGame:
    """A saved game whose record cannot be loaded, and why; it is kept in the file but skipped."""

    id: int
    reason: str


@dataclass(frozen=True)
class UnfinishedGames:
    """The unfinished games that load (latest saved first) and those that do not."""

    games: tuple[SavedGame, ...]
    unreadable: tuple[UnreadableGame, ...]


_COLUMNS = "id, record, computer, assisted, started, saved, finished, version, owner, hall_asked, turn_began"


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


class SavedGames:
    """The saved games kept in a :class:`Database`."""

    def __init__(self, database: Database) -> None:
        self._database = database

    def start(
        self,
        game: Game,
        *,
        levels: Sequence[str | None] | None = None,
        assisted: bool = False,
        owner: str | None = None,
    ) -> SavedGame:
        """Save a game for the first time; it is at version 0.

        ``levels`` gives each seat's computer level, ``None`` for a person (default: all people),
        so a resumed game plays on as it began. ``owner`` is ``None`` for this machine's players.
        """
        return self._database.write(starter(game, levels, assisted=assisted, owner=owner))

    def version(self, game_id: int) -> int:
        """The version of saved game ``game_id`` now; :class:`SavedGameError` if there is none."""
        row = self._database.read_row("SELECT version FROM saved_game WHERE id = ?", (game_id,))
        if row is None:
            raise SavedGameError(f"there is no saved game {game_id}")
        return int(row[0])

    def save(
        self,
        game_id: int,
        game: Game,
        *,
        version: int,
        assisted: bool = False,
        known: SavedGame | None = None,
    ) -> SavedGame:
        """Save ``game`` over saved game ``game_id``, marking it finished once the game is over.

        ``version`` is the version the caller read (from the :class:`SavedGame` it last got);
        if the game was written since, :class:`VersionConflict` is raised and nothing changes.
        The saved game returned carries the new version. ``assisted=True`` marks the game
        assisted for good; ``False`` leaves the mark as it was. Raises :class:`SavedGameError`
        if there is no such game, it is over, or its players differ.

        ``known`` is that saved game as the caller got it at ``version``: what a save does not
        change (when it started, the levels, the owner, the seats asked) is then taken from it
        instead of being read back, since the version check vouches that the row is that one.
        """
        _check_version(version)
        if known is not None and (known.id != game_id or known.version != version):
            raise ValueError(f"the known saved game is {known.id} at version {known.version}")
        now = _now()
        finished = _finished(game)
        ended = _turns_ended(game)
        # One statement, kept on its own: every check is in its WHERE (a game's players never
        # change, so they have a column of their own rather than being read back from the record).
        # A save that ends a turn begins the next now (the right-hand sides read the row as it was).
        row = self._database.update_saved(
            "UPDATE saved_game SET record = ?, assisted = CASE WHEN ? = 1 THEN 1 ELSE assisted END, "
            "saved = ?, finished = ?, version = version + 1, "
            "turn_began = CASE WHEN turns_ended = ? THEN turn_began ELSE ? END, turns_ended = ? "
            "WHERE id = ? AND version = ? AND finished IS NULL AND players = ? "
            f"RETURNING {'' if known is not None else _SAVE_READ_BACK}turn_began, id, version",
            (
                game.to_json(), int(assisted), now.isoformat(), finished, ended, now.isoformat(), ended,
                game_id, version, _players(game),
            ),
        )  # fmt: skip
        if row is None:
            self._database.write(lambda connection: _refused_save(connection, game_id, version))
        assert row is not None
        began = _when(row[-3])
        if known is not None:
            return replace(
                known,
                assisted=known.assisted or assisted,
                saved=now,
                round=game.round,
                current_player=game.current_player,
                totals=_totals(game),
                version=version + 1,
                turn_began=began,
            )
        return _summary(
            game_id,
            game,
            _stored_flags(row[0]),
            bool(row[1]),
            datetime.fromisoformat(str(row[2])),
            now,
            version=version + 1,
            owner=row[3],
            hall_asked=_stored_seats(row[4]),
            turn_began=began,
        )

    def answer_hall(
        self, game_id: int, seat: int, name: str | None, *, version: int, total: int, players: int
    ) -> HallAnswer:
        """Answer the Hall of Fame prompt for ``seat`` of a finished game, in one transaction.

        ``name`` enters ``total`` (for a game of ``players``) if it still qualifies; ``None``
        declines. Either way the seat is marked asked and the version goes up by one. A bad
        name raises ``IllegalAction`` before anything is written; a computer seat or an assisted
        game raises :class:`NotEligible`; a seat already asked, or a game not over, raises
        :class:`SavedGameError`; a stale ``version`` raises :class:`VersionConflict`. Whatever
        fails, nothing is kept: never an entry without its mark, so a retry enters it once.
        """
        _check_version(version)
        candidate = (
            None
            if name is None
            else Candidate.checked(name, total, players=players, computer=False, assisted=False)
        )

        def answer(connection: Connection) -> HallAnswer:
            row = _stored(connection, game_id, version)
            asked = _unasked(row, game_id, [seat])
            entry = None
            if candidate is not None:
                if _stored_flags(row[2])[seat] is not False:
                    raise NotEligible("computer players do not enter the Hall of Fame")
                if row[3]:
                    raise NotEligible(
                        "a game played with the computer's advice does not enter the Hall of Fame"
                    )
                entry = candidate.enter(connection)
            return HallAnswer(entry, *_mark_asked(connection, game_id, version, asked))

        return self._database.write(answer)

    def mark_hall_asked(self, game_id: int, seats: Iterable[int], *, version: int) -> int:
        """Mark ``seats`` of a finished game as through the Hall of Fame prompt; the new version.

        For seats told they no longer qualify. The same rules as :meth:`answer_hall`: a stale
        ``version`` or a seat already asked changes nothing and raises.
        """
        _check_version(version)
        chosen = list(seats)

        def mark(connection: Connection) -> int:
            row = _stored(connection, game_id, version)
            return _mark_asked(connection, game_id, version, _unasked(row, game_id, chosen))[0]

        return self._database.write(mark)

    def unfinished(self) -> UnfinishedGames:
        """The unfinished games of this computer's own players, each replayed through the rules.

        Games with an owner (the web server's) are left out: the owner saves them from its own
        copy, so resuming one elsewhere would be refused at its next save.
        """
        rows = self._database.read(
            f"SELECT {_COLUMNS} FROM saved_game WHERE finished IS NULL AND owner IS NULL "
            "ORDER BY saved DESC, id DESC"
        )
        games: list[SavedGame] = []
        unreadable: list[UnreadableGame] = []
        for row in rows:
            try:
                games.append(_load(row)[0])
            except SavedGameError as error:
                unreadable.append(UnreadableGame(int(row[0]), str(error)))
        return UnfinishedGames(tuple(games), tuple(unreadable))

    def load(
        self,
        game_id: int,
        rng: DiceSource | None = None,
        *,
        finished: bool = False,
        known: Game | None = None,
    ) -> tuple[SavedGame, Game]:
        """A saved game, replayed through the rules; ``rng`` rolls from there on.

        Only an unfinished game, unless ``finished`` (to show a game that has ended). Raises
        :class:`SavedGameError` when there is no such game or it fails to replay. ``known`` is
        an earlier state of the game held by the caller: if the record continues it, only the
        actions added since are replayed.
        """
        row = self._database.read_row(f"SELECT {_COLUMNS} FROM saved_game WHERE id = ?", (game_id,))
        if row is None:
            raise SavedGameError(f"there is no saved game {game_id}")
        if row[6] is not None and not finished:
            raise SavedGameError(f"saved game {game_id} is already over")
        return _load(row, rng, known)

    def discard(self, game_id: int) -> bool:
        """Delete a saved game; whether there was one."""
        return bool(
            self._database.write(
                lambda connection: (
                    connection.execute("DELETE FROM saved_game WHERE id = ?", (game_id,)).rowcount
                )
            )
        )


def starter(
    game: Game, levels: Sequence[str | None] | None, *, assisted: bool, owner: str | None
) -> Callable[[Connection], SavedGame]:
    """The insert of a new saved game, to run inside a write; the arguments are checked now."""
    flags = _check_levels(game, levels)
    if owner is not None and (not isinstance(owner, str) or not owner):
        raise ValueError(f"an owner is a non-empty name or None, not {owner!r}")
    record = game.to_json()
    now = _now()

    def insert(connection: Connection) -> SavedGame:
        [(game_id,)] = connection.execute(
            "INSERT INTO saved_game "
            "(record, computer, assisted, started, saved, finished, version, owner, players, turns_ended, "
            "turn_began) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?) RETURNING id",
            (
                record,
                json.dumps(flags),
                int(assisted),
                now.isoformat(),
                now.isoformat(),
                _finished(game),
                owner,
                _players(game),
                _turns_ended(game),
                now.isoformat(),
            ),
        ).fetchall()
        connection.notify_saved(game_id, 0)
        return _summary(
            game_id, game, flags, assisted, now, now, version=0, owner=owner, hall_asked=(), turn_began=now
        )

    return insert


def _check_version(version: int) -> None:
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise ValueError(f"a saved game's version is a whole number from 0, not {version!r}")


def _stored(connection: Connection, game_id: int, version: int) -> tuple[object, ...]:
    """The game's row, read under the write lock, if it is still at ``version``."""
    row = connection.execute(f"SELECT {_COLUMNS} FROM saved_game WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise SavedGameError(f"there is no saved game {game_id}")
    if row[7] != version:
        raise VersionConflict(f"saved game {game_id} has changed since it was read")
    return tuple(row)


def _refused_save(connection: Connection, game_id: int, version: int) -> None:
    """Why a save's UPDATE matched no row: no such game, another version, over, other players.
    Always raises."""
    row = _stored(connection, game_id, version)
    if row[6] is not None:
        raise SavedGameError(f"saved game {game_id} is already over")
    raise SavedGameError(f"saved game {game_id} has other players")


def _bump(
    connection: Connection, game_id: int, version: int, assignments: str, values: Sequence[object]
) -> None:
    """Write the changes and the next version, only over the version that was read.

    On SQLite ``BEGIN IMMEDIATE`` already keeps others out between the read and this write; on
    PostgreSQL a concurrent writer of the row waits here, then finds the version moved on and
    changes nothing. Other processes are told of the new version when the write commits.
    """
    cursor = connection.execute(
        f"UPDATE saved_game SET {assignments}, version = ? WHERE id = ? AND version = ?",
        (*values, version + 1, game_id, version),
    )
    if cursor.rowcount != 1:
        raise VersionConflict(f"saved game {game_id} has changed since it was read")
    connection.notify_saved(game_id, version + 1)


def _unasked(row: tuple[object, ...], game_id: int, seats: Sequence[int]) -> set[int]:
    """The seats asked so far, once ``seats`` are checked as seats of the finished game not yet asked."""
    if row[6] is None:
        raise SavedGameError(f"saved game {game_id} is not over: no one is asked for the Hall of Fame yet")
    count = len(_stored_flags(row[2]))
    asked = set(_stored_seats(row[9]))
    for seat in seats:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < count:
            raise SavedGameError(f"saved game {game_id} has no seat {seat!r}")
        if seat in asked:
            raise SavedGameError(f"seat {seat} of saved game {game_id} has already answered the Hall of Fame")
    return asked | set(seats)


def _mark_asked(
    connection: Connection, game_id: int, version: int, asked: set[int]
) -> tuple[int, tuple[int, ...]]:
    seats = tuple(sorted(asked))
    _bump(connection, game_id, version, "hall_asked = ?", (json.dumps(list(seats)),))
    return version + 1, seats


_SAVE_READ_BACK = "computer, assisted, started, owner, hall_asked, "
"""What a save reads back of the row when the caller does not know it already."""


def _players(game: Game) -> str:
    """The players' column: their names as JSON, as the record has them."""
    return json.dumps(list(game.names))


def _totals(game: Game) -> tuple[int, ...]:
    return tuple(game.total(seat) for seat in range(len(game.names)))


def _turns_ended(game: Game) -> int:
    """How many turns of the game have ended (each with an entry, or a player resigning)."""
    return sum(1 for event in game.history if isinstance(event, Scored | Resigned))


def _when(text: object) -> datetime | None:
    return None if text is None else datetime.fromisoformat(str(text))


def _finished(game: Game) -> str | None:
    return _now().isoformat() if game.is_over else None


# Each seat is stored as false (a person) or a level name (a computer player). Files from before
# levels were kept said true; migration 5 rewrote those, and one met anyway plays at the best level.
Flag = bool | str
LEGACY_LEVEL = "hard"


def _check_levels(game: Game, levels: Sequence[str | None] | None) -> list[Flag]:
    chosen = [None] * len(game.names) if levels is None else list(levels)
    if len(chosen) != len(game.names) or not all(
        level is None or (isinstance(level, str) and level) for level in chosen
    ):
        raise ValueError(
            f"levels name each seat's computer level, or None for a person: {len(game.names)} of them"
        )
    return [False if level is None else level for level in chosen]


def _is_flag(flag: object) -> bool:
    return isinstance(flag, bool) or (isinstance(flag, str) and bool(flag))


def _stored_flags(text: object) -> list[Flag]:
    try:
        flags = json.loads(str(text))
    except ValueError:
        flags = None
    if not isinstance(flags, list) or not all(_is_flag(flag) for flag in flags):
        raise SavedGameError(f"its computer levels are not a list of false or level names: {text!r}")
    return [LEGACY_LEVEL if flag is True else flag for flag in flags]


def _stored_seats(text: object) -> tuple[int, ...]:
    try:
        seats = json.loads(str(text))
    except ValueError:
        seats = None
    if not isinstance(seats, list) or not all(type(seat) is int for seat in seats):
        raise SavedGameError(f"its seats asked for the Hall of Fame are not a list of seats: {text!r}")
    return tuple(seats)


def _load(
    row: tuple[object, ...], rng: DiceSource | None = None, known: Game | None = None
) -> tuple[SavedGame, Game]:
    game_id, record, computer, assisted, started, saved, finished, version, owner, hall_asked, began = row
    try:
        flags = _stored_flags(computer)
        asked = _stored_seats(hall_asked)
        game = _replayed(str(record), rng, known)
        if len(flags) != len(game.names):
            raise SavedGameError(f"it flags {len(flags)} seats for {len(game.names)} players")
        if game.is_over != (finished is not None):
            state = "over but was never marked finished" if game.is_over else "marked finished but not over"
            raise SavedGameError(f"the game is {state}")
        when_started = datetime.fromisoformat(str(started))
        when_saved = datetime.fromisoformat(str(saved))
        when_began = _when(began)
    except (RecordError, SavedGameError, ValueError) as error:
        raise SavedGameError(f"saved game {game_id} cannot be loaded: {error}") from None
    summary = _summary(
        int(str(game_id)),
        game,
        flags,
        bool(assisted),
        when_started,
        when_saved,
        version=int(str(version)),
        owner=None if owner is None else str(owner),
        hall_asked=asked,
        turn_began=when_began,
    )
    return summary, game


def _replayed(text: str, rng: DiceSource | None, known: Game | None) -> Game:
    """The game of a stored record: ``known`` carried on if the record continues it, else the
    whole record replayed."""
    if known is None:
        return Game.from_json(text, rng=rng)
    carried = known.continued_json(text, rng)
    if carried is not None:
        return carried
    record = Record.from_json(text)
    try:
        return known.continued(record, rng)
    except RecordError:
        return Game.from_record(record, rng)


def _summary(
    game_id: int,
    game: Game,
    flags: Sequence[Flag],
    assisted: bool,
    started: datetime,
    saved: datetime,
    *,
    version: int,
    owner: object,
    hall_asked: tuple[int, ...],
    turn_began: datetime | None = None,
) -> SavedGame:
    return SavedGame(
        id=game_id,
        names=game.names,
        computer=tuple(flag is not False for flag in flags),
        levels=tuple(flag if isinstance(flag, str) else None for flag in flags),
        assisted=assisted,
        started=started,
        saved=saved,
        round=game.round,
        current_player=game.current_player,
        totals=_totals(game),
        version=version,
        owner=None if owner is None else str(owner),
        hall_asked=hall_asked,
        turn_began=turn_began,
    )
