"""The computer at the web table: its strategy table, loaded once per server off the event loop,
and the computer seats' turns, played on the server one action at a time.

Loading the table takes a moment, and the first time on a machine solving it takes a few
seconds; meanwhile the server goes on serving, and pages say the computer is getting ready.
A load that fails, or a solve that stalls, makes the computer "unavailable" with the reason:
never "getting ready" for good. Easy and medium players need no table and play at once; the
hard player, advice and proficiency wait for it; the target player waits for the futures of every
position too (the first time on a machine, under a minute: its table says the computer is getting
ready). Each action, once the table is there, takes milliseconds; it is made on the store thread,
where every other change to a game is made, and the turns are paced on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from typing import Protocol, TypeVar

from kismet_dice.rules import IllegalAction
from kismet_dice.session import Stale, Unsaved
from kismet_dice.session.tables import NoSuchTable, Table, Tables
from kismet_dice.storage import Claims, LocalClaims
from kismet_dice.strategy import Advisor, Computer, ComputerUnavailable, Level
from kismet_dice.strategy.compiled import telling_compiles
from kismet_dice.strategy.reference import Reference
from kismet_dice.web.schemas import ComputerState, ComputerTask
from kismet_dice.web.store_thread import StoreNotAnswering

log = logging.getLogger(__name__)

T = TypeVar("T")

REST_SECONDS = (1.0, 60.0)
"""After a computer's play stops on a failure (a full disk, a store away), the pause before the
table's computer plays again, doubling from the first figure to the second at each failure in a
row: a page or the sweep asking for it again meanwhile does not start it (nor fill the log)."""


class Runner(Protocol):
    """Runs work that touches the tables on the store thread (see ``WebService.run``)."""

    def __call__(self, work: Callable[[], T]) -> Awaitable[T]: ...


PROGRESS_SECONDS = 2.0
"""The least time between two progress reports to a table's pages while the computer gets ready."""


STOPPING = "the server is stopping; ask again once it is back"
"""What a request still waiting when the server stops is answered (503)."""


class Stopped(Exception):
    """The server stopped while the work a request waited for was under way (:data:`STOPPING`)."""


class Stopping:
    """The server's stop, as the long work its requests wait on sees it: the games the charts compare
    with (:class:`ChartReference`), perfect play's distribution for a game's standings and the Hall
    of Fame chances of late advice, the first time each is needed. Such work reports its progress to
    :meth:`progress`, and once :meth:`stop` is called it stops at its next report (a few hundred
    games, a layer of positions), storing nothing: worked out on, it held the stopped server's
    process for as long as it had left (its thread is waited for as the process ends)."""

    def __init__(self) -> None:
        self._stopped = threading.Event()

    def stop(self) -> None:
        self._stopped.set()

    def check(self) -> None:
        """:class:`Stopped` once the server is stopping."""
        if self._stopped.is_set():
            raise Stopped(STOPPING)

    def progress(self, done: int, total: int) -> None:
        """A progress report of the work: :meth:`check`."""
        self.check()


class ChartReference:
    """The games the statistics' charts compare with (:func:`~kismet_dice.strategy.reference.reference`),
    played the first time a chart needs them (seconds) and kept for the process, and how far they
    are meanwhile, for the pages that wait for a chart. None are started once the server is
    ``stopping``, and games being played stop."""

    def __init__(self, computer: Computer, stopping: Stopping) -> None:
        self.computer = computer
        self.stopping = stopping
        self._progress: float | None = None

    @property
    def progress(self) -> float | None:
        """The share of the games played (0 to 1) while they are played; ``None`` otherwise."""
        return self._progress

    @property
    def available(self) -> bool:
        """Whether the strategy table is on this machine, so :meth:`get` gives a reference."""
        return self.computer.stored

    def get(self) -> Reference | None:
        """The reference, made now if need be (blocking: from a worker thread); ``None`` where the
        strategy table is not on this machine (a chart is then drawn without it, not after a solve)."""
        self.stopping.check()
        try:
            return self.computer.chart_reference(self._played)
        finally:
            self._progress = None

    def _played(self, done: int, total: int) -> None:
        self.stopping.progress(done, total)
        self._progress = done / total if total else None


class Readiness:
    """What the :class:`Computer`'s players of ``levels`` need, loaded in one background thread the
    first time it is needed: the strategy table for the hard player and advice, and the futures
    of every position too for the target player (worked out in under a minute the first time on a
    machine, so it has a readiness of its own and the table's does not wait for it).

    When a load started from the server's event loop ends, ready or failed, ``announce`` is
    called there, so the pages that said "getting ready" learn that it is over.
    """

    def __init__(
        self,
        computer: Computer,
        announce: Callable[[], None] | None = None,
        levels: tuple[Level, ...] = (Level.HARD,),
        progressed: Callable[[], None] | None = None,
    ) -> None:
        self.computer = computer
        self.levels = levels
        self._announce = announce
        self._progressed = progressed
        self._lock = threading.Lock()
        self._loading: Future[None] | None = None
        self._progress: float | None = None
        self._compiling = False
        self._told: tuple[float, int] = (0.0, -1)  # when progress was last told, and its percent then

    @property
    def task(self) -> ComputerTask | None:
        """What is being got ready, while it is: the strategy table, or (for the target player, once
        the table is there) the futures of every position; ``None`` once ready or before."""
        if self.state != "getting_ready":
            return None
        if any(level.needs_futures for level in self.levels) and self.computer.ready:
            return "futures"
        return "strategy"

    @property
    def progress(self) -> float | None:
        """The share of :attr:`task` done (0 to 1) while it is worked out, where known."""
        return self._progress if self.state == "getting_ready" else None

    @property
    def compiling(self) -> bool:
        """Whether, while it gets ready, the strategy began to compile (the first run on this
        machine, which then takes some seconds more) and no progress was reported since."""
        return self.state == "getting_ready" and self._compiling

    @property
    def state(self) -> ComputerState:
        if self.computer.ready_for(self.levels):
            return "ready"
        loading = self._loading
        if loading is None:
            return "not_loaded"
        if not loading.done():
            return "getting_ready"
        return "ready" if loading.exception() is None else "unavailable"

    @property
    def problem(self) -> str | None:
        """Why the computer is unavailable, in one line; ``None`` unless it is."""
        loading = self._loading
        if loading is None or not loading.done() or loading.exception() is None:
            return None
        return str(loading.exception())

    def start(self) -> Future[None]:
        """Begin loading (once per server, or again after a failure); the future of its end."""
        with self._lock:
            failed = self._loading is not None and self._loading.done() and self._loading.exception()
            if self._loading is None or failed:
                loading: Future[None] = Future()
                self._loading = loading
                if self.computer.ready_for(self.levels):
                    loading.set_result(None)
                else:
                    try:
                        loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
                    except RuntimeError:
                        loop = None
                    # A daemon thread: the solve's worker processes end with the server anyway.
                    threading.Thread(
                        target=self._load, args=(loading, loop), name="kismet-table", daemon=True
                    ).start()
            assert self._loading is not None
            return self._loading

    def _load(self, loading: Future[None], loop: asyncio.AbstractEventLoop | None) -> None:
        def progress(done: int, total: int) -> None:
            # From the computing thread: kept, and told to the pages at most every PROGRESS_SECONDS
            # and only when a whole percent more is done (the futures take half a minute).
            share = done / total if total else None
            self._progress = share
            self._compiling = False
            if share is None or loop is None or self._progressed is None:
                return
            now, percent = time.monotonic(), int(100 * share)
            told_at, told_percent = self._told
            if percent != told_percent and now - told_at >= PROGRESS_SECONDS:
                self._told = (now, percent)
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(self._progressed)

        def compiling_began() -> None:
            # From the compiling thread: the pages learn at once why it takes longer, and learn
            # that it is over from the next progress report.
            self._compiling = True
            if loop is not None and self._progressed is not None:
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(self._progressed)

        try:
            with telling_compiles(compiling_began):
                self.computer.prepare(self.levels, progress)
            loading.set_result(None)
        except ComputerUnavailable as error:
            log.error("the computer is unavailable: %s", error)
            loading.set_exception(error)
        except BaseException as error:
            log.error("the computer's strategy table could not be loaded", exc_info=error)
            loading.set_exception(ComputerUnavailable("its strategy table failed to load"))
        if loop is not None and self._announce is not None:
            # A loop that has closed meanwhile has no pages left to tell.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._announce)

    async def wait(self) -> None:
        """Until what the levels need is loaded (without blocking the server)."""
        try:
            await asyncio.wrap_future(self.start())
        except ComputerUnavailable as error:
            raise ComputerUnavailable(f"the computer cannot play or advise on this server: {error}") from None

    async def advisor(self) -> Advisor:
        """The advisor, waiting (without blocking the server) while the table loads."""
        await self.wait()
        return self.computer.advisor()


class ComputerTurns:
    """Plays the computer seats of every table: one task per table while a computer has the turn.

    ``pace`` is the pause in seconds before each action, so people can follow the play; every
    action is kept by the tables (which tell the pages). If the computer cannot go on,
    ``complain`` tells the table's pages why.

    Where several processes serve one store, a process plays a game's computers only while it
    holds the game's claim (``claims``): one process at a time, and another takes the game over
    when the one playing it ends (see :meth:`WebService.sweep`). A computer's action made on a
    game that moved on meanwhile is refused by the store's version check and is not taken again
    blindly: the game is read afresh first.
    """

    def __init__(
        self,
        tables: Tables,
        run: Runner,
        readiness: Readiness,
        pace: float,
        complain: Callable[[str, Exception], None],
        claims: Claims | None = None,
        target: Readiness | None = None,
    ) -> None:
        self._tables = tables
        self._run = run
        self._readiness = readiness
        self._target = target if target is not None else Readiness(readiness.computer, levels=(Level.TARGET,))
        self._pace = pace
        self._complain = complain
        self._claims = claims if claims is not None else LocalClaims()
        self._playing: dict[str, asyncio.Task[None]] = {}
        # Per table whose play failed last: until when it rests, and how many failures in a row.
        self._resting: dict[str, tuple[float, int]] = {}
        # Tables whose play was asked for again while it was playing.
        self._again: set[str] = set()

    def playing(self, table_id: str) -> bool:
        """Whether this process is playing the computers of ``table_id`` now."""
        task = self._playing.get(table_id)
        return task is not None and not task.done()

    def stop(self) -> None:
        """Stop every computer's play (the server is stopping); each game is as last kept. (The
        claims are closed by their owner, on the store thread where they are used.)"""
        for task in self._playing.values():
            task.cancel()
        self._playing.clear()

    def follow(self, table: Table) -> None:
        """Start the computer's play at ``table`` if it has the turn and is not already playing."""
        session = table.session
        if any(level is not None and level.needs_futures for level in session.levels):
            self._target.start()
        elif any(level is not None and level.needs_table for level in session.levels):
            self._readiness.start()
        if not session.is_computer_turn:
            return
        if self._is_resting(table.id):
            return
        loop = asyncio.get_running_loop()
        playing = self._playing.get(table.id)
        # A task of a loop that has ended (a test client's request) never ran to its end.
        if playing is not None and not playing.done() and playing.get_loop() is loop:
            # It may already have seen a person's turn and be letting go of the claim: it looks again.
            self._again.add(table.id)
            return
        self._playing[table.id] = loop.create_task(self._play(table.id), name=f"computer at {table.id}")

    def _look(self, table_id: str) -> tuple[int, Level | None]:  # on the store thread
        """The table's saved game and the level of the computer whose turn it is (``None``: a person's)."""
        table = self._tables.get(table_id)
        seat = table.session.current_seat
        return table.saved_id, None if seat is None else seat.level

    async def _play(self, table_id: str) -> None:
        try:
            while True:
                self._again.discard(table_id)
                await self._play_turns(table_id)
                # A person who played while this play was ending (after it saw their turn) gave the
                # computer the turn again: play on, unless the play stopped on a failure.
                if table_id not in self._again or self._is_resting(table_id):
                    return
        finally:
            self._again.discard(table_id)
            if self._playing.get(table_id) is asyncio.current_task():
                del self._playing[table_id]

    async def _play_turns(self, table_id: str) -> None:
        claimed: int | None = None
        try:
            while True:
                saved_id, level = await self._run(lambda: self._look(table_id))
                if level is None:
                    return
                if claimed is None:
                    if not await self._run(functools.partial(self._claims.claim, saved_id)):
                        return  # another process plays this game's computers
                    claimed = saved_id
                if level.needs_futures:
                    await self._target.wait()
                elif level.needs_table:
                    await self._readiness.advisor()
                await asyncio.sleep(self._pace)
                try:
                    await self._run(lambda: self._tables.computer_step(table_id))
                except Stale:
                    continue  # the game moved on meanwhile: look at it again before playing
                self._resting.pop(table_id, None)
        except (ComputerUnavailable, Unsaved, IllegalAction, NoSuchTable, StoreNotAnswering) as error:
            # The game stays where it was kept; the next page to open it starts the play again,
            # once the table has rested (a failure that lasts is told once per rest, not per try).
            self._rest(table_id)
            log.warning("the computer stopped playing at table %s: %s", table_id, error)
            self._complain(table_id, error)
        except Exception as error:
            self._rest(table_id)
            log.error("the computer failed at table %s", table_id, exc_info=error)
            self._complain(table_id, RuntimeError("the computer failed to play; the game is as last saved"))
        finally:
            if claimed is not None:
                with contextlib.suppress(Exception):
                    await self._run(functools.partial(self._claims.release, claimed))

    def _is_resting(self, table_id: str) -> bool:
        resting = self._resting.get(table_id)
        return resting is not None and time.monotonic() < resting[0]

    def _rest(self, table_id: str) -> None:
        """Let the table's computer rest after a failure, longer at each failure in a row."""
        _, failures = self._resting.get(table_id, (0.0, 0))
        first, most = REST_SECONDS
        self._resting[table_id] = (time.monotonic() + min(most, first * 2**failures), failures + 1)
