"""The server's tables: sessions kept in the store, played by whoever holds a seat's token.

A table is a :class:`~kismet_dice.session.table.Session` with a public id and a digest of each
seat's secret token (never the token itself, so the store cannot be used to take a seat).
The store is the authority: a table held in memory is used only after checking that the
store has no newer version of it, every change is kept with a version check before it is
acknowledged, and a change that finds a newer version in the store is taken again, by the
rules, on the game as the store has it. Whatever cannot be kept is refused and changes
nothing. Every change kept is handed to ``changed``, which must not block (the live pages
are told from there).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TypeVar

from kismet_dice.game import Action, DiceSource, SystemDice
from kismet_dice.session.keeping import Policy, Stale, StoreKeeper, Unsaved
from kismet_dice.session.narration import Told
from kismet_dice.session.seats import MAX_TURN_SECONDS, MIN_TURN_SECONDS, BadSetup, Seat, Setup
from kismet_dice.session.table import HallOutcome, Players, Session, seat_levels
from kismet_dice.storage import WEB_OWNER, HallEntry, SavedGameError, Storage, StorageError, database_url
from kismet_dice.strategy import Advisor, Option

OWNER = WEB_OWNER
"""The owner the store records for the server's games (left out of local resume lists)."""

RETRIES = 3
"""How often a change that met a newer version in the store is taken again before giving up."""

HELD = 1000
"""The most tables a server holds in memory. A copy is only a shortcut (the store has every
game), so beyond this the least recently used are let go, except those in use (``busy``):
a server running for months holds what is being played, not every game it ever served."""

T = TypeVar("T")


class NoSuchTable(LookupError):
    """There is no table with that id."""


class MissingSeatToken(PermissionError):
    """Acting for a seat needs the token of its invitation link."""


class WrongSeatToken(PermissionError):
    """A token that is not one of this table's seats."""


def token_digest(token: str) -> str:
    """The digest kept for a seat token.

    >>> len(token_digest("abc"))
    64
    """
    return hashlib.sha256(token.encode()).hexdigest()


class Table:
    """One game at the server: its id, its session and the digests of its seat tokens."""

    def __init__(
        self, table_id: str, session: Session, seat_digests: Sequence[str], turn_seconds: int | None = None
    ) -> None:
        self.id = table_id
        self.session = session
        self._digests = tuple(seat_digests)
        self.turn_seconds = turn_seconds
        """The time for each person's turn, in seconds (``None``: no limit); set up with the game."""

    @property
    def version(self) -> int:
        return self.session.version

    @property
    def saved_id(self) -> int:
        """The id of its saved game in the store."""
        return _saved_id(self)

    @property
    def turn_began(self) -> datetime | None:
        """When the turn being played began, as the store keeps it (the same in every process)."""
        saved = _keeper(self).saved
        return None if saved is None else saved.turn_began

    @property
    def seat_digests(self) -> tuple[str, ...]:
        """The digest kept for each seat's token (empty for a computer's seat)."""
        return self._digests

    def seat_of(self, token: str | None) -> int:
        """The seat whose token this is (never a computer's: its kept digest is empty)."""
        if not token:
            raise MissingSeatToken("this needs the seat token from your invitation link")
        digest = token_digest(token)
        for seat, kept in enumerate(self._digests):
            if kept and hmac.compare_digest(digest, kept):
                return seat
        raise WrongSeatToken("that seat token is not one of this game's")


@dataclass(frozen=True)
class NewTable:
    """A table just set up, and each seat's secret token in seating order (``None`` for a computer)."""

    table: Table
    seat_tokens: tuple[str | None, ...]


@dataclass(frozen=True)
class Change:
    """A change kept at a table: the versions before and after, its events told, and other news
    (Hall of Fame outcomes) in sentences."""

    table: Table
    before: int
    told: tuple[Told, ...] = ()
    news: tuple[str, ...] = ()

    @property
    def version(self) -> int:
        return self.table.version


class Stores:
    """The server's store for the calling thread, all on the same place.

    On SQLite one :class:`Storage` per thread (a SQLite storage serves one thread). On PostgreSQL
    (``database``, or ``$KISMET_DATABASE_URL`` when ``home`` is not given) one storage serves
    every thread, from its connection pool.
    """

    def __init__(self, home: Path | None = None, *, database: str | None = None) -> None:
        self._home = home
        self._url = database_url(database) if database is not None or home is None else None
        self._local = threading.local()
        self._all: list[Storage] = []
        self._lock = threading.Lock()

    def get(self) -> Storage:
        if self._url is not None:
            return self._shared(self._url)
        storage: Storage | None = getattr(self._local, "storage", None)
        if storage is None:
            storage = Storage.open(self._home)
            self._local.storage = storage
            with self._lock:
                self._all.append(storage)
        return storage

    def _shared(self, url: str) -> Storage:
        with self._lock:
            if not self._all:
                self._all.append(Storage.open(database=url))
            return self._all[0]

    def close(self) -> None:
        with self._lock:
            for storage in self._all:
                storage.close()
            self._all.clear()


class Tables:
    """Every table of the server.

    ``players`` makes computer players; ``dice`` rolls every die (tests script it); ``changed``
    hears of every change kept. At most ``held`` tables stay in memory: of the others, the least
    recently used that ``busy`` does not claim are let go, and ``forgot`` hears of each.
    """

    def __init__(
        self,
        stores: Stores,
        players: Players,
        dice: DiceSource | None = None,
        changed: Callable[[Change], None] | None = None,
        *,
        held: int = HELD,
        busy: Callable[[str], bool] | None = None,
        forgot: Callable[[str], None] | None = None,
    ) -> None:
        self._stores = stores
        self._players = players
        self._dice: DiceSource = dice if dice is not None else SystemDice()
        self._changed = changed or (lambda change: None)
        self._open: OrderedDict[str, Table] = OrderedDict()  # least recently used first
        self._by_saved: dict[int, str] = {}
        # Tables held here whose game another process has moved on since, by the version it reached
        # (see heard): their copy is not tried before it is brought up to date.
        self._outdated: dict[str, int] = {}
        self._held = held
        self._busy = busy or (lambda table_id: False)
        self._forgot = forgot or (lambda table_id: None)

    @property
    def held(self) -> int:
        """How many tables are in memory now."""
        return len(self._open)

    def _hold(self, table: Table) -> None:
        if self._outdated.get(table.id, -1) <= table.version:
            self._outdated.pop(table.id, None)
        self._open[table.id] = table
        self._open.move_to_end(table.id)
        self._by_saved[table.saved_id] = table.id
        excess = len(self._open) - self._held
        for table_id in list(self._open):
            if excess <= 0:
                break
            if table_id != table.id and not self._busy(table_id):
                self._let_go(table_id)
                excess -= 1

    def _let_go(self, table_id: str) -> None:
        table = self._open.pop(table_id, None)
        self._outdated.pop(table_id, None)
        if table is not None:
            self._by_saved.pop(table.saved_id, None)
            self._forgot(table_id)

    def listen(self, changed: Callable[[Change], None]) -> None:
        self._changed = changed

    # --- tables -----------------------------------------------------------------------

    def create(self, setup: Setup, turn_seconds: int | None = None) -> NewTable:
        """Set up a game: the dice decide who begins; each person's seat gets a secret token.
        ``turn_seconds``: the time for each person's turn (``None``: no limit)."""
        if turn_seconds is not None and not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
            raise BadSetup(f"a turn's time is {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS} seconds, or no limit")
        setup = setup.checked()
        session = Session.new(setup, computer=self._players, rng=self._dice)
        tokens = tuple(None if seat.is_computer else secrets.token_urlsafe(24) for seat in session.seats)
        digests = ["" if token is None else token_digest(token) for token in tokens]
        table_id = secrets.token_urlsafe(12)
        storage = self._stores.get()
        try:
            saved = storage.tables.create(table_id, session.game, digests, list(session.levels), turn_seconds)
        except StorageError as error:
            raise Unsaved(f"the game could not be saved: {error.public}") from None
        keeper = StoreKeeper(storage, saved, policy=Policy.REFUSE, owner=OWNER)
        table = Table(
            table_id,
            Session(session.game, session.seats, computer=self._players, keeper=keeper),
            digests,
            turn_seconds,
        )
        self._hold(table)
        return NewTable(table, tokens)

    def get(self, table_id: str) -> Table:
        """The table as the store has it: the copy in memory if it is still the store's, else loaded."""
        storage = self._stores.get()
        table = self._open.get(table_id)
        try:
            if (
                table is not None
                and not self._is_outdated(table)
                and storage.games.version(_saved_id(table)) == table.version
            ):
                self._open.move_to_end(table_id)
                return table
            return self._load(table_id)
        except SavedGameError as error:
            self._let_go(table_id)
            raise Unsaved(f"game {table_id} cannot be loaded: {error}") from None
        except StorageError as error:
            raise Unsaved(f"game {table_id} cannot be loaded: {error.public}") from None

    def heard(self, saved_id: int, version: int) -> None:
        """The store holds ``version`` of saved game ``saved_id`` now (another process's change,
        told by the store): a copy held here that is older is brought up to date before it is
        used, rather than tried, refused by the store and then read. Any thread may call this;
        it is only a hint, since every change is checked against the store's version anyway."""
        table_id = self._by_saved.get(saved_id)
        table = None if table_id is None else self._open.get(table_id)
        if table_id is not None and table is not None and table.version < version:
            self._outdated[table_id] = max(version, self._outdated.get(table_id, -1))

    def _is_outdated(self, table: Table) -> bool:
        return self._outdated.get(table.id, -1) > table.version

    def _load(self, table_id: str) -> Table:
        storage = self._stores.get()
        held = self._open.get(table_id)
        if held is not None:
            # Its saved game and seats never change: only the game is read again, and carried on
            # from the copy held here rather than replayed whole (another process moved it on).
            with contextlib.suppress(SavedGameError):  # gone, say: found out below
                return self._loaded(table_id, held.saved_id, held.seat_digests, held)
        found = storage.tables.find(table_id)
        if found is None:
            self._let_go(table_id)
            raise NoSuchTable(f"there is no game {table_id!r}")
        saved_id, digests = found
        return self._loaded(
            table_id, saved_id, digests, held if held is not None and held.saved_id == saved_id else None
        )

    def _loaded(self, table_id: str, saved_id: int, digests: Sequence[str], held: Table | None) -> Table:
        """The table of saved game ``saved_id`` as stored (a finished game too: its table still
        shows it), continuing the game of the copy ``held`` if there is one."""
        storage = self._stores.get()
        known = None if held is None else held.session.game
        saved, game = storage.games.load(saved_id, self._dice, finished=True, known=known)
        seats = [Seat(name, level) for name, level in zip(saved.names, seat_levels(saved), strict=True)]
        keeper = StoreKeeper(storage, saved, policy=Policy.REFUSE, owner=OWNER)
        session = Session(
            game,
            seats,
            computer=self._players,
            keeper=keeper,
            assisted=saved.assisted,
            hall_asked=saved.hall_asked,
        )
        # The time per turn never changes either: read once, when the table is first loaded here.
        turn_seconds = held.turn_seconds if held is not None else storage.tables.turn_seconds(table_id)
        table = Table(table_id, session, digests, turn_seconds)
        self._hold(table)
        return table

    def table_of(self, saved_id: int) -> str | None:
        """The id of the table held in memory whose saved game is ``saved_id``, if there is one."""
        return self._by_saved.get(saved_id)

    def with_computers(self) -> tuple[tuple[str, int, int], ...]:
        """``(table id, saved game id, version)`` of every unfinished table with a computer seat."""
        try:
            return self._stores.get().tables.with_computers()
        except StorageError as error:
            raise Unsaved(error.public) from None

    def stored_version(self, table_id: str) -> int | None:
        """The stored version of a table held in memory (``None`` if none is held), without loading it."""
        table = self._open.get(table_id)
        if table is None:
            return None
        try:
            return self._stores.get().games.version(_saved_id(table))
        except (StorageError, SavedGameError):
            return None

    def unfinished(self) -> tuple[str, ...]:
        """The ids of the tables whose game is not over (their computers may have a turn to play)."""
        try:
            return self._stores.get().tables.unfinished()
        except StorageError as error:
            raise Unsaved(error.public) from None

    def expire(self, before: datetime) -> int:
        """Delete the unfinished games last saved before ``before``; how many there were."""
        try:
            count = self._stores.get().tables.expire(before)
        except StorageError as error:
            raise Unsaved(error.public) from None
        if count:
            # The copies in memory are only a shortcut: an expired game is then "no such game".
            for table_id in list(self._open):
                self._let_go(table_id)
        return count

    def hall(self) -> tuple[HallEntry, ...]:
        try:
            return self._stores.get().hall.entries()
        except StorageError as error:
            raise Unsaved(f"the Hall of Fame cannot be read: {error.public}") from None

    # --- changes ----------------------------------------------------------------------

    def _change(
        self, table_id: str, work: Callable[[Table], T], retries: int = RETRIES
    ) -> tuple[Table, T, int]:
        """Run ``work`` on the table as the store has it; if the store moved on meanwhile, take it
        again on the newer game (by the rules, which may now refuse it).

        The copy held here is tried first without asking the store for its version: a change is
        kept only over the version it was made to, so a stale copy costs a retry, never a wrong
        answer, and the usual case (this process made the last change) saves a round trip. Work
        that kept nothing, or that the rules refused, is believed only once the store's version
        is found to be the copy's.
        """
        held = self._open.get(table_id)
        if held is not None and not self._is_outdated(held):
            before = held.version
            # A stale copy stays held, marked outdated: get() below reads the store's game at once
            # and carries the copy on to it.
            try:
                result = work(held)
            except Stale:
                self._outdated[table_id] = max(before + 1, self._outdated.get(table_id, -1))
                if retries == 1:
                    raise
            except Exception:
                if self.stored_version(table_id) == before:
                    raise  # the store's game refuses it too
            else:
                if held.version != before or self.stored_version(table_id) == before:
                    self._open.move_to_end(table_id)
                    return held, result, before
        for _ in range(retries):
            table = self.get(table_id)
            before = table.version
            try:
                return table, work(table), before
            except Stale:
                if retries == 1:
                    raise
        raise Unsaved("the game is changing too fast to keep this change; try again")

    def act(self, table_id: str, token: str | None, action: Action) -> Change:
        """A person's action at their seat (the token says which seat)."""
        table, told, before = self._change(
            table_id, lambda table: table.session.act(table.seat_of(token), action)
        )
        return self._tell(Change(table, before, told))

    def resign(self, table_id: str, token: str | None) -> Change:
        """The token's seat leaves the game for good (see :meth:`Session.resign`)."""
        table, told, before = self._change(table_id, lambda table: table.session.resign(table.seat_of(token)))
        return self._tell(Change(table, before, told))

    def time_out(self, table_id: str, turn: tuple[int, int]) -> Change:
        """The time of person's turn ``turn`` ran out: the table plays it (see
        :meth:`Session.time_out`); the change's news says so. Never taken again on a newer game
        blindly: a turn played meanwhile is over, which the session refuses."""
        table, (told, news), before = self._change(table_id, lambda table: table.session.time_out(turn))
        return self._tell(Change(table, before, told, (news,)))

    def computer_step(self, table_id: str) -> Change:
        """One action of the computer player whose turn it is.

        Never taken again on a newer game: a game that moved on meanwhile was moved by someone
        else (another process playing this computer, say), so :class:`Stale` is raised and the
        caller looks at the game afresh before playing on.
        """
        table, told, before = self._change(table_id, lambda table: table.session.computer_step(), retries=1)
        return self._tell(Change(table, before, told))

    def advise(self, table_id: str, token: str | None, advisor: Advisor) -> tuple[Change, tuple[Option, ...]]:
        """The advisor's options for the token's seat; the game is marked assisted for good."""
        table, options, before = self._change(
            table_id, lambda table: table.session.advise(table.seat_of(token), advisor)
        )
        return self._tell(Change(table, before)), options

    def check_advice(self, table_id: str, token: str | None) -> Table:
        """Refuse advice now, before waiting for the computer, unless it could be given."""
        table = self.get(table_id)
        table.session.check_advice(table.seat_of(token))
        return table

    def answer_hall(self, table_id: str, token: str | None, name: str | None) -> tuple[Change, HallOutcome]:
        """The token's seat answers the Hall of Fame prompt: a name enters it, ``None`` declines."""
        table, outcome, before = self._change(
            table_id, lambda table: table.session.answer_hall(table.seat_of(token), name)
        )
        return self._tell(Change(table, before, news=outcome.told)), outcome

    def _tell(self, change: Change) -> Change:
        if change.version != change.before:
            self._changed(change)
        return change


def _keeper(table: Table) -> StoreKeeper:
    keeper = table.session.keeper
    assert isinstance(keeper, StoreKeeper)
    return keeper


def _saved_id(table: Table) -> int:
    saved_id = _keeper(table).saved_id
    assert saved_id is not None
    return saved_id


__all__ = [
    "OWNER",
    "Change",
    "MissingSeatToken",
    "NewTable",
    "NoSuchTable",
    "Stores",
    "Table",
    "Tables",
    "WrongSeatToken",
    "token_digest",
]
