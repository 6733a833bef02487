"""The web table service: the tables, the computer and the live pages of one server process.

Made once when the server starts (in the app's lifespan), kept on ``app.state`` and handed
to every route through a dependency. Every change a table keeps is encoded once and queued
for that table's pages; nothing here waits for a page.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kismet_dice.game import DiceSource
from kismet_dice.session import COMPUTER_PACE
from kismet_dice.session.tables import Change, Stores, Table, Tables
from kismet_dice.strategy import Advisor, Computer, ComputerPlayer, Level
from kismet_dice.web.computer import ComputerTurns, Readiness
from kismet_dice.web.errors import message_of, status_of
from kismet_dice.web.live import Hub
from kismet_dice.web.schemas import ErrorMessage, GameView, PresenceMessage, StateMessage
from kismet_dice.web.views import game_view, update_message


@dataclass(frozen=True)
class Settings:
    """What a server is made with: where its store is (``None``: the user's data, or
    ``$KISMET_HOME``), the dice (``None``: the system's), the computer (``None``: one that loads
    its table from the user's data), the pause before each computer action, and a site's
    PostgreSQL URL (``None``: ``$KISMET_DATABASE_URL`` if set, else the SQLite file at ``home``)."""

    home: Path | None = None
    dice: DiceSource | None = None
    computer: Computer | None = None
    pace: float = COMPUTER_PACE
    database: str | None = None


class WebService:
    """The server's tables, its computer, its computer players' turns and its live pages."""

    def __init__(self, settings: Settings) -> None:
        self.computer = settings.computer if settings.computer is not None else Computer()
        self.stores = Stores(settings.home, database=settings.database)
        self.stores.get().check_writable()  # a store that cannot be written stops the server now
        self.hub = Hub()
        self.tables = Tables(self.stores, self._player, settings.dice, changed=self._publish)
        self.readiness = Readiness(self.computer, announce=self._announce_computer)
        self.turns = ComputerTurns(self.tables, self.readiness, settings.pace, self._complain)

    def _player(self, level: Level) -> ComputerPlayer:
        # Only asked at a computer's first move, and a hard one is asked only once the table is loaded.
        return self.computer.player(level)

    # --- drawing and telling ------------------------------------------------------------

    def view(self, table: Table) -> GameView:
        view = game_view(table, self.readiness.state, self.readiness.problem)
        return view.model_copy(update={"connected": self.hub.connected(table.id)})

    def tell_presence(self, table_id: str) -> None:
        """A seat's page came or went: every page of the table sees who is here now."""
        message = PresenceMessage(connected=self.hub.connected(table_id))
        self.hub.publish(table_id, message.model_dump_json())

    def state_message(self, table: Table) -> str:
        return StateMessage(game=self.view(table)).model_dump_json()

    def _publish(self, change: Change) -> None:
        if self.hub.pages(change.table.id):
            message = update_message(change, self.readiness.state, self.readiness.problem)
            message = message.model_copy(update={"connected": self.hub.connected(change.table.id)})
            self.hub.publish(change.table.id, message.model_dump_json())

    def _complain(self, table_id: str, error: Exception) -> None:
        """Tell every page of a table of a failure that no request of theirs caused."""
        message = ErrorMessage(status=status_of(error), error=message_of(error))
        self.hub.publish(table_id, message.model_dump_json())

    def _announce_computer(self) -> None:
        """The computer got ready (or failed to): every open table's pages see it."""
        for table_id in self.hub.tables():
            try:
                table = self.tables.get(table_id)
            except Exception:  # a table that no longer loads is reported when it is opened
                continue
            self.hub.publish(table_id, self.state_message(table))

    # --- the computer -------------------------------------------------------------------

    def follow(self, table: Table) -> Table:
        """A table someone looked at: if a computer has the turn (after a restart, say), it plays."""
        self.turns.follow(table)
        return table

    async def advisor(self, table: Table) -> Advisor:
        """The advisor; if it has to be loaded first, the table's pages are told it is getting ready."""
        if self.readiness.state != "ready":
            self.readiness.start()
            self.hub.publish(table.id, self.state_message(table))
        return await self.readiness.advisor()

    # --- the server's life --------------------------------------------------------------

    def start(self) -> None:
        """Have the computer ready before it is asked, if that only means loading its stored
        table (a solve waits until something needs it); let computers whose turn it was play on."""
        if self.computer.stored:
            self.readiness.start()
        try:
            waiting = self.tables.unfinished()
        except Exception:
            waiting = ()  # the store's trouble is reported by the first request that needs it
        for table_id in waiting:
            try:
                self.follow(self.tables.get(table_id))
            except Exception:
                continue  # a game that no longer loads is reported when someone opens it

    async def stop(self) -> None:
        self.turns.stop()
        await self.hub.close()
        self.stores.close()
