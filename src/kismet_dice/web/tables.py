"""Games at the web table: who may act for which seat, and every action saved before it is shown.

The web layer asks the engine, the session and the advisor for everything; this module only
adds what they do not know about: table ids, seat tokens, and keeping each game in a
:class:`WebTables` store. Which seats are computer players, their moves and the assisted mark
are the :class:`~kismet_dice.session.Session`'s, as at every other table.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kismet_dice.game import DiceSource, Game, HouseRules, Roll, Score
from kismet_dice.rules import Box, IllegalAction
from kismet_dice.session import Seat, Session, Setup
from kismet_dice.storage import HallEntry
from kismet_dice.strategy import Advisor, ComputerPlayer, Option, Proficiency, proficiency
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
    """A table just set up: its id and each seat's secret token, in seating order (``None`` for a
    computer seat, which nobody else may play)."""

    id: str
    seat_tokens: tuple[str | None, ...]


class Table:
    """One game being played (a :class:`Session`), the digests of its seat tokens, and the seats
    already asked for the Hall of Fame."""

    def __init__(
        self,
        table_id: str,
        session: Session,
        seat_digests: Sequence[str],
        hall_asked: Sequence[int] = (),
    ) -> None:
        self.id = table_id
        self.session = session
        self._digests = tuple(seat_digests)
        self.hall_asked = frozenset(hall_asked)
        self.hall_seats: tuple[int, ...] = ()

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.session.seats

    @property
    def assisted(self) -> bool:
        """Someone asked for advice: the game cannot enter the Hall of Fame."""
        return self.session.assisted

    @property
    def version(self) -> int:
        """Grows with every event of the game, so a page can tell a newer state from an older one."""
        return len(self.game.history)

    def seat_of(self, token: str | None) -> int:
        """The seat whose token this is (never a computer's: its kept digest is empty)."""
        if not token:
            raise MissingSeatToken("this needs the seat token from your invitation link")
        digest = token_digest(token)
        for seat, kept in enumerate(self._digests):
            if hmac.compare_digest(digest, kept):
                return seat
        raise WrongSeatToken("that seat token is not one of this game's")


class Tables:
    """Every table the server knows, kept in the storage and cached while the server runs.

    ``players`` makes the computer player of a level; it must not block, since tables are
    opened on the server's event loop (see :mod:`kismet_dice.web.computer`).
    """

    def __init__(
        self,
        store: WebTables,
        players: Callable[[str], ComputerPlayer],
        dice: DiceSource | None = None,
    ) -> None:
        self._store = store
        self._players = players
        self._dice: DiceSource = dice if dice is not None else secrets.SystemRandom()
        self._open: dict[str, Table] = {}

    def create(self, seats: Sequence[Seat], house_rules: HouseRules) -> NewTable:
        try:
            session = Session.new(Setup(tuple(seats), house_rules), computer=self._players, rng=self._dice)
        except IllegalAction as error:
            raise InvalidSetup(str(error)) from None
        tokens = tuple(None if seat.is_computer else secrets.token_urlsafe(24) for seat in session.seats)
        digests = ["" if token is None else token_digest(token) for token in tokens]
        table = Table(secrets.token_urlsafe(12), session, digests)
        try:
            self._store.create(table.id, session.game, digests, [seat.level for seat in session.seats])
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
            seats = [Seat(name, level) for name, level in zip(stored.game.names, stored.levels, strict=True)]
            try:
                session = Session(stored.game, seats, computer=self._players, assisted=stored.assisted)
            except (IllegalAction, ValueError) as error:
                raise StorageUnavailable(f"game {table_id} cannot be loaded: {error}") from None
            table = Table(table_id, session, stored.seat_digests, stored.hall_asked)
            self._open[table_id] = table
        table.hall_seats = self._hall_seats(table)
        return table

    def _hall_seats(self, table: Table) -> tuple[int, ...]:
        """The seats still to ask for a name: the session's candidates not yet asked."""
        try:
            candidates = self._store.hall_candidates(table.session)
        except StoreError as error:
            raise StorageUnavailable(str(error)) from None
        return tuple(seat for seat in candidates if seat not in table.hall_asked)

    def _save(self, table: Table, *, assisted: bool = False) -> None:
        try:
            self._store.save(table.id, table.game, assisted=assisted)
        except StoreError as error:
            # What is shown must be what is kept: forget the unsaved change, reload next time.
            self._open.pop(table.id, None)
            raise StorageUnavailable(f"the game could not be saved: {error}") from None

    def roll(self, table_id: str, token: str | None, hold: Sequence[int]) -> Table:
        return self._act(table_id, token, Roll(tuple(hold)))

    def score(self, table_id: str, token: str | None, box_name: str) -> Table:
        if box_name not in Box.__members__:
            names = ", ".join(Box.__members__)
            raise UnknownBox(f"no box is called {box_name!r}; the boxes are {names}")
        return self._act(table_id, token, Score(Box[box_name]))

    def _players_turn(self, table_id: str, token: str | None) -> tuple[Table, int]:
        """The table and the token's seat, if it is that seat's turn; else the refusal."""
        table = self.get(table_id)
        seat = table.seat_of(token)
        game = table.game
        if game.is_over:
            raise RefusedAction("the game is over")
        if seat != game.current_player:
            current = game.current_player
            assert current is not None
            raise RefusedAction(f"it is {game.names[current]}'s turn, not {game.names[seat]}'s")
        return table, seat

    def _act(self, table_id: str, token: str | None, action: Roll | Score) -> Table:
        table, _seat = self._players_turn(table_id, token)
        try:
            table.game.apply(action)
        except IllegalAction as error:
            raise RefusedAction(str(error)) from None
        self._save(table)
        return self.get(table_id)

    def computer_step(self, table_id: str) -> Table:
        """Let the computer player whose turn it is take one action (a roll or a box), saved."""
        table = self.get(table_id)
        if not table.session.is_computer_turn:
            raise RefusedAction("it is not a computer player's turn")
        try:
            table.session.computer_step()
        except IllegalAction as error:
            raise RefusedAction(str(error)) from None
        self._save(table)
        return self.get(table_id)

    def check_advice(self, table_id: str, token: str | None) -> Table:
        """Refuse advice unless it is the token's seat's turn and there are dice to advise on."""
        table, _seat = self._players_turn(table_id, token)
        if not table.game.dice:
            raise RefusedAction("roll first: advice is about the dice on the table")
        return table

    def advise(self, table_id: str, token: str | None, advisor: Advisor) -> tuple[Table, tuple[Option, ...]]:
        """The advisor's options for the token's seat, best first; the game is marked assisted for good."""
        table = self.check_advice(table_id, token)
        options = advisor.game_options(table.game, table.game.current_player)
        if not table.assisted:
            self._save(table, assisted=True)
            table.session.mark_assisted()
        return self.get(table_id), options

    def check_proficiency(self, table_id: str) -> Table:
        table = self.get(table_id)
        if not table.game.is_over:
            raise RefusedAction("how well everyone played is shown once the game is over")
        return table

    def proficiency(self, table_id: str, advisor: Advisor) -> tuple[Table, Proficiency]:
        """Every decision of a finished game scored against perfect play."""
        table = self.check_proficiency(table_id)
        return table, proficiency(table.game, advisor)

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
        try:
            # The entry and the seat's "asked" mark are one write: a retry never enters it twice.
            entry = self._store.answer_hall(
                table.id, seat, name, table.game.total(seat), len(table.game.names)
            )
        except ValueError as error:
            raise InvalidName(str(error)) from None
        except StoreError as error:
            self._open.pop(table.id, None)  # reload what is kept next time
            raise StorageUnavailable(str(error)) from None
        table.hall_asked = table.hall_asked | {seat}
        table.hall_seats = self._hall_seats(table)
        return entry

    def hall(self) -> tuple[HallEntry, ...]:
        try:
            return self._store.hall_entries()
        except StoreError as error:
            raise StorageUnavailable(str(error)) from None
