"""Games at the web table: who may act for which seat, and every action saved before it is shown.

The web layer asks the engine for everything; this module only adds what the engine does not
know about: table ids, seat tokens, and keeping each game in a :class:`TableStore`.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from kismet_dice.game import DiceSource, Game, HouseRules, RecordError, Roll, Score
from kismet_dice.rules import Box, IllegalAction
from kismet_dice.web.store import StoredTable, StoreError, TableStore, token_digest


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


class StorageUnavailable(TableError):
    status = 503


@dataclass(frozen=True)
class NewTable:
    """A table just set up: its id and one secret seat token per seat, in seating order."""

    id: str
    seat_tokens: tuple[str, ...]


class Table:
    """One game and the digests of its seat tokens."""

    def __init__(self, table_id: str, game: Game, seat_digests: Sequence[str]) -> None:
        self.id = table_id
        self.game = game
        self._digests = tuple(seat_digests)

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

    def stored(self) -> StoredTable:
        return StoredTable(self.id, self.game.to_json(), self._digests)


class Tables:
    """Every table the server knows, kept in a store and cached while the server runs."""

    def __init__(self, store: TableStore, dice: DiceSource | None = None) -> None:
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
        self._save(table)
        self._open[table.id] = table
        return NewTable(table.id, tokens)

    def get(self, table_id: str) -> Table:
        table = self._open.get(table_id)
        if table is not None:
            return table
        try:
            stored = self._store.load(table_id)
        except StoreError as error:
            raise StorageUnavailable(f"game {table_id} cannot be read: {error}") from None
        if stored is None:
            raise UnknownTable(f"there is no game {table_id!r}")
        try:
            game = Game.from_json(stored.record, rng=self._dice)
        except RecordError as error:
            raise StorageUnavailable(f"game {table_id} is damaged: {error}") from None
        table = Table(stored.id, game, stored.seat_digests)
        self._open[table_id] = table
        return table

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
        self._save(table)
        return table

    def _save(self, table: Table) -> None:
        try:
            self._store.save(table.stored())
        except StoreError as error:
            # What is shown must be what is kept: forget the unsaved action, reload next time.
            self._open.pop(table.id, None)
            raise StorageUnavailable(f"the game could not be saved: {error}") from None
