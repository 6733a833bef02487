"""Games at the web table: who may act for which seat, and every action saved before it is shown.

The web layer asks the engine for everything; this module only adds what the engine does not
know about: table ids, seat tokens, and keeping each game in a :class:`TableStore`.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from kismet_dice.game import DiceSource, Game, HouseRules, Roll, Score
from kismet_dice.rules import Box, IllegalAction
from kismet_dice.storage import HallEntry
from kismet_dice.web.store import StoreError, WebTables, token_digest


class TableError(Exception):
    """A request the table refuses; ``status`` is the HTTP status that says why, the message what."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnknownTable(TableError):
    status = 404


class MissingSeatToken(TableError):
    status = 401


class WrongSeatToken(TableError):
    status = 403


class RefusedAction(TableError):
    """An action the rules or the turn order do not allow now; the game is unchanged."""

    status = 409


class UnknownBox(TableError):
    status = 422


class InvalidSetup(TableError):
    """Players the engine refuses: bad or shared names."""

    status = 422


class InvalidName(TableError):
    status = 422


class StorageUnavailable(TableError):
    status = 503


@dataclass(frozen=True)
class NewTable:
    """A table just set up: its id and one secret seat token per seat, in seating order."""

    id: str
    seat_tokens: tuple[str, ...]


class Table:
    """One game, the digests of its seat tokens, and the seats already asked for the Hall of Fame."""

    def __init__(
        self,
        table_id: str,
        game: Game,
        seat_digests: Sequence[str],
        hall_asked: Sequence[int] = (),
        assisted: bool = False,
    ) -> None:
        self.id = table_id
        self.game = game
        self._digests = tuple(seat_digests)
        self.hall_asked = frozenset(hall_asked)
        self.assisted = assisted
        self.hall_seats: tuple[int, ...] = ()

    @property
    def version(self) -> int:
        """Grows with every event of the game, so a page can tell a newer state from an older one."""
        return len(self.game.history)

    def seat_of(self, token: str | None) -> int:
        """The seat whose token this is."""
        if not token:
            raise MissingSeatToken("this needs the seat token from your invitation link")
        digest = token_digest(token)
        for seat, kept in enumerate(self._digests):
            if hmac.compare_digest(digest, kept):
                return seat
        raise WrongSeatToken("that seat token is not one of this game's")


class Tables:
    """Every table the server knows, kept in the storage and cached while the server runs."""

    def __init__(self, store: WebTables, dice: DiceSource | None = None) -> None:
        self._store = store
        self._dice: DiceSource = dice if dice is not None else secrets.SystemRandom()
        self._open: dict[str, Table] = {}

    def create(self, names: Sequence[str], house_rules: HouseRules) -> NewTable:
        try:
            game = Game(list(names), rng=self._dice, house_rules=house_rules)
        except IllegalAction as error:
            raise InvalidSetup(str(error)) from None
        tokens = tuple(secrets.token_urlsafe(24) for _ in names)
        table = Table(secrets.token_urlsafe(12), game, [token_digest(token) for token in tokens])
        try:
            self._store.create(table.id, game, [token_digest(token) for token in tokens])
        except StoreError as error:
            raise StorageUnavailable(f"the game could not be saved: {error}") from None
        self._open[table.id] = table
        return NewTable(table.id, tokens)

    def get(self, table_id: str) -> Table:
        table = self._open.get(table_id)
        if table is None:
            try:
                stored = self._store.load(table_id, self._dice)
            except StoreError as error:
                raise StorageUnavailable(str(error)) from None
            if stored is None:
                raise UnknownTable(f"there is no game {table_id!r}")
            table = Table(table_id, stored.game, stored.seat_digests, stored.hall_asked, stored.assisted)
            self._open[table_id] = table
        table.hall_seats = self._hall_seats(table)
        return table

    def _hall_seats(self, table: Table) -> tuple[int, ...]:
        """The seats to ask for a name: the game is over, unassisted, and their total qualifies."""
        game = table.game
        if not game.is_over or table.assisted:
            return ()
        try:
            return tuple(
                seat
                for seat in range(len(game.names))
                if seat not in table.hall_asked and self._store.hall_qualifies(game.total(seat))
            )
        except StoreError as error:
            raise StorageUnavailable(str(error)) from None

    def roll(self, table_id: str, token: str | None, hold: Sequence[int]) -> Table:
        return self._act(table_id, token, Roll(tuple(hold)))

    def score(self, table_id: str, token: str | None, box_name: str) -> Table:
        if box_name not in Box.__members__:
            names = ", ".join(Box.__members__)
            raise UnknownBox(f"no box is called {box_name!r}; the boxes are {names}")
        return self._act(table_id, token, Score(Box[box_name]))

    def _act(self, table_id: str, token: str | None, action: Roll | Score) -> Table:
        table = self.get(table_id)
        seat = table.seat_of(token)
        game = table.game
        if game.is_over:
            raise RefusedAction("the game is over")
        if seat != game.current_player:
            current = game.current_player
            assert current is not None
            raise RefusedAction(f"it is {game.names[current]}'s turn, not {game.names[seat]}'s")
        try:
            game.apply(action)
        except IllegalAction as error:
            raise RefusedAction(str(error)) from None
        try:
            self._store.save(table.id, game)
        except StoreError as error:
            # What is shown must be what is kept: forget the unsaved action, reload next time.
            self._open.pop(table.id, None)
            raise StorageUnavailable(f"the game could not be saved: {error}") from None
        return self.get(table_id)

    def enter_hall(self, table_id: str, token: str | None, name: str | None) -> HallEntry | None:
        """Answer the Hall of Fame prompt for the token's seat: a name enters it, ``None`` declines."""
        table = self.get(table_id)
        seat = table.seat_of(token)
        if seat not in table.hall_seats:
            raise RefusedAction(
                "the game is not over yet"
                if not table.game.is_over
                else f"{table.game.names[seat]} has no Hall of Fame entry to make"
            )
        entry = None
        try:
            if name is not None:
                try:
                    entry = self._store.enter_hall(name, table.game.total(seat), len(table.game.names))
                except ValueError as error:
                    raise InvalidName(str(error)) from None
            self._store.mark_asked(table.id, sorted(table.hall_asked | {seat}))
        except StoreError as error:
            raise StorageUnavailable(str(error)) from None
        table.hall_asked = table.hall_asked | {seat}
        table.hall_seats = self._hall_seats(table)
        return entry

    def hall(self) -> tuple[HallEntry, ...]:
        try:
            return self._store.hall_entries()
        except StoreError as error:
            raise StorageUnavailable(str(error)) from None
