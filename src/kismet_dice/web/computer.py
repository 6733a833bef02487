"""The computer at the web table: its strategy table, loaded once per server off the event loop,
and the computer seats' turns, played on the server one action at a time.

Loading the table takes a moment, and the first time on a machine solving it takes about half a
minute; meanwhile the server goes on serving, and pages say the computer is getting ready. Easy
and medium players need no table and play at once; the hard player, advice and proficiency wait
for it. Each action, once the table is there, takes milliseconds, so it runs on the event loop,
where every other change to a game is made.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import Future
from typing import Literal

from kismet_dice.game import Action, Game
from kismet_dice.strategy import Advisor, Computer, ComputerPlayer
from kismet_dice.web.tables import Table, TableError, Tables

log = logging.getLogger(__name__)

ComputerState = Literal["not_loaded", "getting_ready", "ready", "unavailable"]


class ComputerUnavailable(TableError):
    """The strategy table failed to load: no hard moves, advice or proficiency on this server."""

    status = 503


class Readiness:
    """The :class:`Computer`'s table, loaded in one background thread the first time it is needed.

    When a load started from the server's event loop ends, ready or failed, ``announce`` is run
    there, so the pages that said "getting ready" learn that it is over.
    """

    def __init__(
        self, computer: Computer, announce: Callable[[], Coroutine[None, None, None]] | None = None
    ) -> None:
        self.computer = computer
        self._announce = announce
        self._lock = threading.Lock()
        self._loading: Future[Advisor] | None = None
        self._announcing: set[asyncio.Task[None]] = set()

    @property
    def state(self) -> ComputerState:
        if self.computer.ready:
            return "ready"
        loading = self._loading
        if loading is None:
            return "not_loaded"
        if not loading.done():
            return "getting_ready"
        return "ready" if loading.exception() is None else "unavailable"

    def start(self) -> Future[Advisor]:
        """Begin loading (once per server); the future of the advisor."""
        with self._lock:
            if self._loading is None:
                loading: Future[Advisor] = Future()
                self._loading = loading
                if self.computer.ready:
                    loading.set_result(self.computer.advisor())
                else:
                    try:
                        loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
                    except RuntimeError:
                        loop = None
                    # A daemon thread: a server stopped while solving should stop at once.
                    threading.Thread(
                        target=self._load, args=(loading, loop), name="kismet-table", daemon=True
                    ).start()
            return self._loading

    def _load(self, loading: Future[Advisor], loop: asyncio.AbstractEventLoop | None) -> None:
        try:
            loading.set_result(self.computer.advisor())
        except BaseException as error:
            log.error("the computer's strategy table could not be loaded", exc_info=error)
            loading.set_exception(error)
        if loop is not None and self._announce is not None:
            # A loop that has closed meanwhile has no pages left to tell.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._announce_done)

    def _announce_done(self) -> None:
        assert self._announce is not None
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(self._announce())
        # The loop keeps only a weak reference to a task: hold it until it is done.
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)

    async def advisor(self) -> Advisor:
        """The advisor, waiting (without blocking the server) while the table loads."""
        try:
            return await asyncio.wrap_future(self.start())
        except Exception:
            raise ComputerUnavailable(
                "the computer cannot play or advise on this server: its strategy table failed to load"
            ) from None


class WhenReady:
    """A computer player that is made at its first move, so a table with a hard seat opens at once
    even before the strategy table is loaded (the turns below wait for it before asking)."""

    def __init__(self, computer: Computer, level: str) -> None:
        self.level = level
        self._computer = computer
        self._player: ComputerPlayer | None = None

    def choose(self, game: Game) -> Action:
        if self._player is None:
            self._player = self._computer.player(self.level)
        return self._player.choose(game)


class ComputerTurns:
    """Plays the computer seats of every table: one task per table while a computer has the turn.

    ``pace`` is the pause in seconds before each action, so people can follow the play; every
    action is saved and then handed to ``announce`` (which pushes it to the open pages). If the
    computer cannot go on, ``complain`` tells the table's pages why.
    """

    def __init__(
        self,
        tables: Tables,
        readiness: Readiness,
        announce: Callable[[Table], Awaitable[None]],
        complain: Callable[[str, TableError], Awaitable[None]],
        pace: float,
    ) -> None:
        self._tables = tables
        self._readiness = readiness
        self._announce = announce
        self._complain = complain
        self._pace = pace
        self._playing: dict[str, asyncio.Task[None]] = {}

    def stop(self) -> None:
        """Stop every computer's play (the server is stopping); each game is as last saved."""
        for task in self._playing.values():
            task.cancel()
        self._playing.clear()

    def needs_table(self, table: Table) -> bool:
        return any(
            seat.level is not None and self._readiness.computer.needs_table(seat.level)
            for seat in table.seats
        )

    def follow(self, table: Table) -> None:
        """Start the computer's play at ``table`` if it has the turn and is not already playing."""
        if self.needs_table(table):
            self._readiness.start()
        if not table.session.is_computer_turn:
            return
        loop = asyncio.get_running_loop()
        playing = self._playing.get(table.id)
        # A task of a loop that has ended (a test client's request) never ran to its end.
        if playing is not None and not playing.done() and playing.get_loop() is loop:
            return
        self._playing[table.id] = loop.create_task(self._play(table.id), name=f"computer at {table.id}")

    async def _play(self, table_id: str) -> None:
        try:
            while True:
                table = self._tables.get(table_id)
                seat = table.session.current_seat
                if seat is None or seat.level is None:
                    return
                if self._readiness.computer.needs_table(seat.level):
                    await self._readiness.advisor()
                await asyncio.sleep(self._pace)
                table = self._tables.computer_step(table_id)
                await self._announce(table)
        except TableError as error:
            # The game stays where it was saved; the next page to open it starts the play again.
            log.warning("the computer stopped playing at table %s: %s", table_id, error.message)
            await self._complain(table_id, error)
        except Exception as error:
            log.error("the computer failed at table %s", table_id, exc_info=error)
            failure = TableError("the computer failed to play; the game is as last saved")
            failure.status = 500
            await self._complain(table_id, failure)
        finally:
            if self._playing.get(table_id) is asyncio.current_task():
                del self._playing[table_id]
