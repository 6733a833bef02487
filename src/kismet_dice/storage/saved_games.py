"""Saved games: the engine's JSON record of a game, written after every action.

A game is saved whole each time in one transaction, so what loads is always the game as of
its last complete action. When a saved game ends it is marked finished and no longer offered.
Loading replays the record through the rules; a record that fails is reported, never loaded.
Besides the record a saved game carries what the engine does not know: which seats are
computer players, and whether anyone asked the computer for advice ("assisted"); both keep
a game out of the Hall of Fame.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from kismet_dice.game import DiceSource, Game, RecordError
from kismet_dice.storage.database import Database
from kismet_dice.storage.errors import SavedGameError


@dataclass(frozen=True)
class SavedGame:
    """What a person needs to pick an unfinished game to resume, and what the Hall of Fame needs.

    ``computer[seat]`` is true for a computer player, and ``levels[seat]`` is its level
    (``None`` for a person, and for a computer player saved before levels were kept);
    ``current_player`` is ``None`` once over.
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
    levels: tuple[str | None, ...] = ()

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats of the human players."""
        return tuple(seat for seat, is_computer in enumerate(self.computer) if not is_computer)

    def describe(self) -> str:
        """One line for a list of games to resume.

        >>> when = datetime(2024, 5, 1, 14, 3, tzinfo=UTC)
        >>> SavedGame(7, ("Ann", "Bob"), (False, True), False, when, when, 4, 1, (120, 98)).describe()
        'Ann has 120, Bob (computer) has 98; round 4, Bob to play'
        """
        players = ", ".join(
            f"{name}{' (computer)' if self.computer[seat] else ''} has {self.totals[seat]}"
            for seat, name in enumerate(self.names)
        )
        turn = "over" if self.current_player is None else f"{self.names[self.current_player]} to play"
        return f"{players}; round {self.round}, {turn}"


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


_COLUMNS = "id, record, computer, assisted, started, saved, finished"


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
        computer: Sequence[bool] | None = None,
        levels: Sequence[str | None] | None = None,
        assisted: bool = False,
    ) -> SavedGame:
        """Save a game for the first time.

        ``computer`` flags each seat (default: all human); or ``levels`` gives each seat's
        computer level, ``None`` for a person, so a resumed game plays on as it began.
        """
        flags = _check_flags(game, computer, levels)
        record = game.to_json()
        now = _now()

        def insert(connection: sqlite3.Connection) -> int:
            cursor = connection.execute(
                "INSERT INTO saved_game (record, computer, assisted, started, saved, finished) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (record, json.dumps(flags), int(assisted), now.isoformat(), now.isoformat(), _finished(game)),
            )
            assert cursor.lastrowid is not None
            return cursor.lastrowid

        game_id = self._database.write(insert)
        return _summary(game_id, game, flags, assisted, now, now)

    def save(self, game_id: int, game: Game, *, assisted: bool = False) -> SavedGame:
        """Save ``game`` over saved game ``game_id``, marking it finished once the game is over.

        ``assisted=True`` marks the game assisted for good; ``False`` leaves the mark as it was.
        Raises :class:`SavedGameError` if there is no such game or its players differ.
        """
        record = game.to_json()
        now = _now()

        def update(connection: sqlite3.Connection) -> SavedGame:
            row = connection.execute(f"SELECT {_COLUMNS} FROM saved_game WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise SavedGameError(f"there is no saved game {game_id}")
            flags = _stored_flags(row[2])
            if row[6] is not None:
                raise SavedGameError(f"saved game {game_id} is already over")
            if len(flags) != len(game.names) or _players(row[1]) != list(game.names):
                raise SavedGameError(f"saved game {game_id} has other players")
            marked = bool(row[3]) or assisted
            connection.execute(
                "UPDATE saved_game SET record = ?, assisted = ?, saved = ?, finished = ? WHERE id = ?",
                (record, int(marked), now.isoformat(), _finished(game), game_id),
            )
            return _summary(game_id, game, flags, marked, datetime.fromisoformat(row[4]), now)

        return self._database.write(update)

    def mark_assisted(self, game_id: int) -> None:
        """Record that someone in the game asked the computer for advice (this cannot be undone)."""
        self._database.write(
            lambda connection: (
                connection.execute("UPDATE saved_game SET assisted = 1 WHERE id = ?", (game_id,)).rowcount
            )
        )

    def unfinished(self) -> UnfinishedGames:
        """The unfinished games of this computer's own players, each replayed through the rules.

        Games at a web table are left out: they belong to the server, which saves them from
        its own copy, so resuming one elsewhere would be overwritten.
        """
        rows = self._database.read(
            f"SELECT {_COLUMNS} FROM saved_game WHERE finished IS NULL "
            "AND NOT EXISTS (SELECT 1 FROM web_table WHERE web_table.saved_game = saved_game.id) "
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
        self, game_id: int, rng: DiceSource | None = None, *, finished: bool = False
    ) -> tuple[SavedGame, Game]:
        """A saved game, replayed through the rules; ``rng`` rolls from there on.

        Only an unfinished game, unless ``finished`` (to show a game that has ended). Raises
        :class:`SavedGameError` when there is no such game or it fails to replay.
        """
        rows = self._database.read(f"SELECT {_COLUMNS} FROM saved_game WHERE id = ?", (game_id,))
        if not rows:
            raise SavedGameError(f"there is no saved game {game_id}")
        if rows[0][6] is not None and not finished:
            raise SavedGameError(f"saved game {game_id} is already over")
        return _load(rows[0], rng)

    def discard(self, game_id: int) -> bool:
        """Delete a saved game; whether there was one."""
        return bool(
            self._database.write(
                lambda connection: (
                    connection.execute("DELETE FROM saved_game WHERE id = ?", (game_id,)).rowcount
                )
            )
        )


def _finished(game: Game) -> str | None:
    return _now().isoformat() if game.is_over else None


def _players(record: object) -> object:
    try:
        parsed = json.loads(str(record))
    except ValueError:
        return None
    return parsed.get("players") if isinstance(parsed, dict) else None


# Each seat is stored as false (a person), a level name (a computer player), or true (a
# computer player saved before levels were kept).
Flag = bool | str


def _check_flags(
    game: Game, computer: Sequence[bool] | None, levels: Sequence[str | None] | None = None
) -> list[Flag]:
    if levels is not None:
        if computer is not None and list(computer) != [level is not None for level in levels]:
            raise ValueError("computer flags and levels disagree")
        flags: list[Flag] = [False if level is None else level for level in levels]
    else:
        flags = [False] * len(game.names) if computer is None else list(computer)
    if len(flags) != len(game.names) or not all(_is_flag(flag) for flag in flags):
        raise ValueError(f"computer flags one seat each with True or False: {len(game.names)} of them")
    return flags


def _is_flag(flag: object) -> bool:
    return isinstance(flag, bool) or (isinstance(flag, str) and bool(flag))


def _stored_flags(text: object) -> list[Flag]:
    try:
        flags = json.loads(str(text))
    except ValueError:
        flags = None
    if not isinstance(flags, list) or not all(_is_flag(flag) for flag in flags):
        raise SavedGameError(f"its computer-player flags are not a list of true/false: {text!r}")
    return flags


def _load(row: tuple[object, ...], rng: DiceSource | None = None) -> tuple[SavedGame, Game]:
    game_id, record, computer, assisted, started, saved, finished = row
    try:
        flags = _stored_flags(computer)
        game = Game.from_json(str(record), rng=rng)
        if len(flags) != len(game.names):
            raise SavedGameError(f"it flags {len(flags)} seats for {len(game.names)} players")
        if game.is_over != (finished is not None):
            state = "over but was never marked finished" if game.is_over else "marked finished but not over"
            raise SavedGameError(f"the game is {state}")
        when_started = datetime.fromisoformat(str(started))
        when_saved = datetime.fromisoformat(str(saved))
    except (RecordError, SavedGameError, ValueError) as error:
        raise SavedGameError(f"saved game {game_id} cannot be loaded: {error}") from None
    summary = _summary(int(str(game_id)), game, flags, bool(assisted), when_started, when_saved)
    return summary, game


def _summary(
    game_id: int, game: Game, flags: Sequence[Flag], assisted: bool, started: datetime, saved: datetime
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
        totals=tuple(game.total(seat) for seat in range(len(game.names))),
    )
