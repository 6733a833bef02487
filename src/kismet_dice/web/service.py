"""The web table service: the tables, the computer and the live pages of one server process.

Made once when the server starts (in the app's lifespan), kept on ``app.state`` and handed
to every route through a dependency. Every change a table keeps is encoded once and queued
for that table's pages; nothing here waits for a page.

Two threads share the work, and each part of the service belongs to one of them. The tables,
the store and the views drawn from them belong to the store thread (:mod:`.store_thread`): a
route hands its work there with :meth:`WebService.run`, so a store that is slow or away never
holds up the event loop. The live pages and the computer players' turns belong to the event
loop; what the store thread tells them goes there with :meth:`WebService.on_loop`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from kismet_dice.game import DiceSource, Game
from kismet_dice.rules import IllegalAction
from kismet_dice.session import COMPUTER_PACE, MAX_SEATS, HallChances
from kismet_dice.session.tables import Change, Stores, Table, Tables
from kismet_dice.session.win_chances import MODEL, WinChances
from kismet_dice.storage import Listener
from kismet_dice.strategy import Advisor, Computer, ComputerPlayer, Goal, Level
from kismet_dice.web.computer import ChartReference, ComputerTurns, Readiness, Stopping
from kismet_dice.web.errors import message_of, status_of
from kismet_dice.web.live import Hub
from kismet_dice.web.schemas import ChancesMessage, ErrorMessage, GameView, PresenceMessage
from kismet_dice.web.store_thread import StoreThread
from kismet_dice.web.turn_clock import Turn, TurnClock
from kismet_dice.web.views import (
    event_json,
    game_json,
    player_json,
    touched,
    turn_json,
    update_json,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

SWEEP_SECONDS = 2.0
"""How often a server on a shared store looks for computers that no process is playing."""

STOP_SECONDS = 2.0
"""The longest a stopping server waits for its store to be let go (a store that stopped
answering is left: the process ends anyway, and the store drops what it holds of it)."""


@dataclass
class _History:
    """A table's events drawn so far: the history's length then, the JSON of each event told, and
    their places in that list by their place in the history (not every event is told)."""

    length: int = 0
    encoded: list[str] = field(default_factory=list)
    at: dict[int, int] = field(default_factory=dict)  # an event's place in the history -> in the list


@dataclass(frozen=True)
class _Sheet:
    """A seat's sheet drawn (its JSON), and what it was drawn from: its name, level, entries and
    (for the player whose turn it is) the dice its options come from."""

    drawn_from: tuple[object, ...]
    encoded: str


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
        # Made on the event loop (the app's lifespan): what the store thread tells goes there.
        self._loop = asyncio.get_running_loop()
        self.store_thread = StoreThread()
        self.pace = settings.pace
        """The pause before each action of a computer player, in seconds (what ``/api/limits`` tells)."""
        self.computer = settings.computer if settings.computer is not None else Computer()
        self.stores = Stores(settings.home, database=settings.database)
        self.stores.get().check_writable()  # a store that cannot be written stops the server now
        self.hub = Hub()
        # Advice's chances of a Hall of Fame total, remembered for every table of this process.
        self.hall_chances = HallChances(self.computer)
        # Everyone's chance of winning, worked out on a thread of its own (a few milliseconds, tens
        # early in a game): neither the event loop nor the store thread waits for it.
        self.win_chances = WinChances(self.computer)
        self.chances_thread = StoreThread(name="kismet-chances")
        # Per table: the latest version whose chances were asked for (older ones still queued are skipped).
        self._chances_wanted: dict[str, int] = {}
        self.tables = Tables(
            self.stores,
            self._player,
            settings.dice,
            changed=self._publish,
            busy=self._busy,
            forgot=self._forget,
        )
        self.readiness = Readiness(self.computer, self._announce_computer, progressed=self._announce_computer)
        # The target player's futures take half a minute the first time: ready on their own, later.
        self.target_readiness = Readiness(
            self.computer, self._announce_computer, (Level.TARGET,), progressed=self._announce_target_progress
        )
        self.stopping = Stopping()  # told first when the server stops
        self.chart_reference = ChartReference(self.computer, self.stopping)
        self.claims = self.stores.get().claims()
        self.turns = ComputerTurns(
            self.tables,
            self.run,
            self.readiness,
            settings.pace,
            self._complain,
            self.claims,
            self.target_readiness,
        )
        # Per table with pages here: the version last sent to them and the game's history length then.
        self._told: dict[str, tuple[int, int]] = {}
        # Per table: its events drawn so far (see _history); per table and seat: its sheet drawn last.
        self._events: dict[str, _History] = {}
        self._sheets: dict[tuple[str, int], _Sheet] = {}
        self._turns: dict[str, tuple[tuple[object, ...], str]] = {}
        # Per table with a computer seat: the version at which a person had the turn (no need to look again).
        self._persons_turn: dict[str, int] = {}
        # Per table with a time per turn (the store thread's): the person's turn timed, and its deadline.
        self._deadlines: dict[str, tuple[Turn, float]] = {}
        self.clock = TurnClock(self._time_out)
        self._listener: Listener | None = None
        self._sweeping: asyncio.Task[None] | None = None

    async def run(self, work: Callable[[], T]) -> T:
        """``work`` (anything that touches the tables or their views) done on the store thread,
        waited for without holding up the event loop; 503 (:class:`StoreNotAnswering`) if the
        store takes longer than the deadline."""
        return await self.store_thread.run(work)

    def on_loop(self, work: Callable[..., object], *arguments: object) -> None:
        """Have the event loop do ``work(*arguments)`` (the live pages and the computer's turns
        are the loop's), in the order asked; from any thread. A loop that has closed has no
        pages left to tell."""
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(work, *arguments)

    def _busy(self, table_id: str) -> bool:
        """A table in use here: pages follow it, or its computer is playing."""
        return bool(self.hub.pages(table_id)) or self.turns.playing(table_id)

    def _forget(self, table_id: str) -> None:
        """A table no longer held in memory: what was drawn of it goes too."""
        self._told.pop(table_id, None)
        self._events.pop(table_id, None)
        self._turns.pop(table_id, None)
        self._persons_turn.pop(table_id, None)
        self._chances_wanted.pop(table_id, None)
        if self._deadlines.pop(table_id, None) is not None:
            self.on_loop(self.clock.stop, table_id)
        for seat in range(MAX_SEATS):
            self._sheets.pop((table_id, seat), None)

    def _player(self, level: Level, goal: Goal) -> ComputerPlayer:
        # Only asked at a computer's first move, and a hard one is asked only once the table is loaded
        # (a target one once the futures are).
        return self.computer.player(level, goal)

    def _readiness_of(self, table: Table) -> Readiness:
        """What a table's pages are told of the computer: the target player's readiness where a seat
        is one (it is ready last), else the table's."""
        if any(level is not None and level.needs_futures for level in table.session.levels):
            return self.target_readiness
        return self.readiness

    # --- drawing and telling ------------------------------------------------------------

    def view(self, table: Table) -> GameView:
        """The game as a :class:`GameView`, for the few answers that hold it among other fields: read
        from :meth:`view_json`, the one place a game is put together."""
        return GameView.model_validate_json(self.view_json(table))

    def view_json(self, table: Table) -> bytes:
        """The JSON of :meth:`view`, put together from the events and sheets encoded before:
        an answer costs what changed, not the whole game again."""
        game = table.session.game
        return game_json(
            table,
            self._turn(table),
            [self._sheet(table, seat).encoded for seat in range(len(game.names))],
            self._history(table).encoded,
            self.hub.connected(table.id),
        )

    def tell_presence(self, table_id: str) -> None:
        """A seat's page came or went: every page of the table sees who is here now."""
        message = PresenceMessage(connected=self.hub.connected(table_id))
        self.hub.publish(table_id, message.model_dump_json())

    def _history(self, table: Table) -> _History:
        """Every event of the table, drawn and encoded once: a game's history only grows, so the
        views drawn for a table stay true and only the new events are told and drawn."""
        length = len(table.session.game.history)
        kept = self._events.get(table.id)
        if kept is None or kept.length > length:
            kept = self._events[table.id] = _History()
        if kept.length < length:
            for told in table.session.story(kept.length):
                kept.encoded.append(event_json(told))
                kept.at[told.index] = len(kept.encoded) - 1
            kept.length = length
        return kept

    def _sheet(self, table: Table, seat: int) -> _Sheet:
        """A seat's sheet, drawn again only if it changed: an action changes one or two sheets,
        and the same version's sheets are drawn for the answer and for the live pages."""
        game = table.session.game
        drawn_from = (
            game.names[seat],
            table.session.seats[seat].level,
            game.sheet(seat),
            game.dice if seat == game.current_player else None,  # the options come from the dice
        )
        kept = self._sheets.get((table.id, seat))
        if kept is None or kept.drawn_from != drawn_from:
            kept = self._sheets[(table.id, seat)] = _Sheet(drawn_from, player_json(table, seat))
        return kept

    def _turn(self, table: Table) -> str:
        """The turn's JSON, drawn once per version: the answer to an action and the update its
        pages are sent show the same. (Not kept once the game is over: its standings may come
        later, when the distribution of perfect play is stored, with no new version.)"""
        readiness = self._readiness_of(table)
        task, progress, compiling = readiness.task, readiness.progress, readiness.compiling
        deadline = self._deadline(table)
        key = (table.version, readiness.state, readiness.problem, task, progress, compiling, deadline)
        kept = self._turns.get(table.id)
        if kept is not None and kept[0] == key:
            return kept[1]
        encoded = turn_json(table, readiness.state, readiness.problem, task, progress, deadline, compiling)
        if table.session.game.is_over:
            self._turns.pop(table.id, None)
        else:
            self._turns[table.id] = (key, encoded)
        return encoded

    def _deadline(self, table: Table) -> float | None:  # on the store thread
        """When the person's turn at ``table`` runs out (seconds since 1970), where the table gives
        each turn a time: its time after the turn began, as the store keeps it (so every process,
        and one restarted, counts from the same moment; a game saved before that was kept counts
        from when it is first drawn here). The clock is wound once per turn."""
        seconds = table.turn_seconds
        turn = None if seconds is None else table.session.turn_key
        if seconds is None or turn is None:
            if self._deadlines.pop(table.id, None) is not None:
                self.on_loop(self.clock.stop, table.id)
            return None
        kept = self._deadlines.get(table.id)
        if kept is not None and kept[0] == turn:
            return kept[1]
        began = table.turn_began
        deadline = (time.time() if began is None else began.timestamp()) + seconds
        self._deadlines[table.id] = (turn, deadline)
        self.on_loop(self.clock.arm, table.id, turn, deadline)
        return deadline

    async def _time_out(self, table_id: str, turn: Turn) -> None:
        """A person's time ran out: the table plays the turn (a computer may have the next)."""
        try:
            await self.run(lambda: self.follow(self.tables.time_out(table_id, turn).table))
        except IllegalAction:
            pass  # the turn was played meanwhile (here or by another process): nothing is late
        except Exception as error:
            log.warning("the time out at table %s could not be played: %s", table_id, error)
            self._complain(table_id, error)

    def state_message(self, table: Table) -> str:
        self._remember(table)
        # What StateMessage(game=self.view(table)).model_dump_json() writes, from the parts kept.
        return f'{{"type":"state","game":{self.view_json(table).decode()},"sent":{round(time.time(), 3)}}}'

    def _remember(self, table: Table) -> None:
        """The pages of ``table`` here are sent its version now (never goes back)."""
        known = self._told.get(table.id)
        if known is None or known[0] < table.version:
            self._told[table.id] = (table.version, len(table.session.game.history))

    def _publish(self, change: Change) -> None:
        table = change.table
        self._deadline(table)  # a new person's turn is timed whether or not a page follows it
        if not self.hub.pages(table.id):
            self._told.pop(table.id, None)
            return
        known = self._told.get(table.id)
        if known is not None and known[0] >= change.version:
            return  # told already
        if known is not None and known[0] < change.before and known[1] <= len(table.session.game.history):
            # Other processes' changes came first and were not told here yet: one update tells all.
            change = Change(table, known[0], table.session.story(known[1]), change.news)
        history = self._history(table)
        events = [
            history.encoded[history.at[told.index]] if told.index in history.at else event_json(told)
            for told in change.told
        ]
        message = update_json(
            change,
            self._turn(table),
            events,
            [self._sheet(table, seat).encoded for seat in touched(change)],
            self.hub.connected(table.id),
            time.time(),
        )
        self._remember(table)
        self.on_loop(self.hub.publish, table.id, message)
        self.tell_chances(table)

    def tell_chances(self, table: Table) -> None:  # on the store thread
        """Once worked out, send the table's pages everyone's chance of winning at its version now
        (where this server holds the futures of every position)."""
        if not self.win_chances.available or not self.hub.pages(table.id):
            return
        game, version, table_id = table.session.game.copy(), table.version, table.id
        self._chances_wanted[table_id] = version

        def work() -> None:
            if self._chances_wanted.get(table_id, version) > version:
                return  # the table moved on while this waited: the newer version's chances follow
            found = self.win_chances.of(game)
            if found is not None:
                message = ChancesMessage(version=version, win_chances=list(found), model=MODEL)
                self.on_loop(self.hub.publish, table_id, message.model_dump_json())

        self.chances_thread.post(work, "working out the chances of winning")

    async def with_chances(self, view: bytes, game: Game) -> bytes:
        """A game's view with each player's chance of winning (where this server holds the futures
        of every position; else as it is), worked out on the chances thread."""
        if not self.win_chances.available:
            return view
        found = await asyncio.wrap_future(self.chances_thread.submit(lambda: self.win_chances.of(game)))
        if found is None:
            return view
        drawn = json.loads(view)
        for player, chance in zip(drawn["players"], found, strict=True):
            player["win_chance"] = chance
        return json.dumps(drawn, separators=(",", ":")).encode()

    def _complain(self, table_id: str, error: Exception) -> None:
        """Tell every page of a table of a failure that no request of theirs caused (on the loop)."""
        message = ErrorMessage(status=status_of(error), error=message_of(error))
        self.hub.publish(table_id, message.model_dump_json())

    def _announce_computer(self) -> None:
        """The computer got ready (or failed to), or is further along: every open table's pages see it."""
        self.store_thread.post(lambda: self._announce(targets_only=False), "telling pages of the computer")

    def _announce_target_progress(self) -> None:
        """The target computer's futures are further along: the pages of tables with a target seat
        see how far (the others have nothing to wait for)."""
        self.store_thread.post(lambda: self._announce(targets_only=True), "telling pages of the futures")

    def _announce(self, *, targets_only: bool) -> None:  # on the store thread
        for table_id in self.hub.tables():
            try:
                table = self.tables.get(table_id)
            except Exception:  # a table that no longer loads is reported when it is opened
                continue
            if not targets_only or self._readiness_of(table) is self.target_readiness:
                self.on_loop(self.hub.publish, table_id, self.state_message(table))

    # --- the computer -------------------------------------------------------------------

    def follow(self, table: Table) -> Table:
        """A table someone looked at: if a computer has the turn (after a restart, say), it plays
        (its turns are the event loop's: started there, once the work asking this is done)."""
        self.on_loop(self.turns.follow, table)
        return table

    async def advisor(self, table: Table) -> Advisor:
        """The advisor; if it has to be loaded first, the table's pages are told it is getting ready."""
        if self.readiness.state != "ready":
            self.readiness.start()
            self.hub.publish(table.id, await self.run(lambda: self.state_message(table)))
        return await self.readiness.advisor()

    # --- the server's life --------------------------------------------------------------

    def start(self) -> None:
        """Have the computer ready before it is asked, if that only means loading its stored
        table (a solve waits until something needs it); let computers whose turn it was play on.
        On a store shared with other processes, listen for their changes and take over the
        computers of any that stops."""
        if self.computer.stored:
            self.readiness.start()
        if self.computer.futures_stored:
            self.target_readiness.start()
        if self.stores.get().shared:
            self._start_sharing()
        self.store_thread.post(self._resume, "resuming the computers' games")

    def _resume(self) -> None:  # on the store thread
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
        """Stop serving: the pages are closed and the store let go, within a few seconds even if
        the store no longer answers (what its thread was doing then is given up)."""
        if self._sweeping is not None:
            self._sweeping.cancel()
        self.stopping.stop()
        if self._listener is not None:
            # Off the loop: a listener stuck on a store that does not answer takes up to a second
            # to give up, and the loop goes on answering the open connections meanwhile.
            await asyncio.to_thread(self._listener.stop)
        self.turns.stop()
        self.clock.close()
        await self.hub.close()
        closing = self.store_thread.submit(self._close_store)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.wrap_future(closing), STOP_SECONDS)
        self.store_thread.stop()
        self.chances_thread.stop()

    def _close_store(self) -> None:  # on the store thread, whose storage is its own
        self.claims.close()
        self.stores.close()

    # --- other processes on the same store (PostgreSQL) -----------------------------------

    def _start_sharing(self) -> None:
        loop = asyncio.get_running_loop()

        def heard(game_id: int, version: int) -> None:  # on the listener's thread
            # A copy held here that another process moved on is read again before its next use.
            self.tables.heard(game_id, version)
            # This process's own changes come back too, mostly after their pages were told: those
            # are let go here rather than queued for the store thread for nothing. (Only reads of
            # dicts that thread writes; whatever passes is looked at again there.)
            table_id = self.tables.table_of(game_id)
            known = None if table_id is None else self._told.get(table_id)
            if table_id is None or (known is not None and known[0] >= version):
                return
            self.store_thread.post(lambda: self._heard(game_id, version), "telling pages of a change")

        def listening() -> None:  # on the listener's thread, each time it (re)connects
            self.store_thread.post(self._catch_up_all, "catching up with the store")

        self._listener = self.stores.get().listen(heard, listening)
        self._sweeping = loop.create_task(self._sweep(), name="computer sweep")

    def _heard(self, game_id: int, version: int) -> None:  # on the store thread
        """Another process (or this one) kept ``version`` of a saved game: tell this process's pages."""
        table_id = self.tables.table_of(game_id)
        if table_id is None or not self.hub.pages(table_id):
            return
        known = self._told.get(table_id)
        if known is None or known[0] < version:
            self._catch_up(table_id)

    def _catch_up(self, table_id: str) -> None:
        """Send the pages of ``table_id`` what happened since the version they were last sent."""
        try:
            table = self.tables.get(table_id)  # the store's version, loaded if this copy is old
        except Exception:
            return  # a table that no longer loads is reported when it is opened
        known = self._told.get(table_id)
        if known is not None and known[0] >= table.version:
            return
        if known is None or known[1] > len(table.session.game.history):
            self.on_loop(self.hub.publish, table_id, self.state_message(table))
        else:
            self._publish(Change(table, known[0], table.session.story(known[1])))

    def _catch_up_all(self) -> None:
        """After a gap in listening: every table with pages here is checked against the store."""
        for table_id in self.hub.tables():
            self._catch_up(table_id)

    async def _sweep(self) -> None:
        """Every :data:`SWEEP_SECONDS`, take over the computers of games that nobody plays: a game
        whose computer has the turn and whose claim is free (the process playing it ended).
        A store that fails is told to the log once, not at every sweep, until it answers again."""
        failing = False
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                # Background work: waited for as long as it takes (no page waits for it).
                unplayed = await asyncio.wrap_future(self.store_thread.submit(self.unplayed))
            except Exception as error:  # the store's trouble: try again at the next sweep
                if not failing:
                    log.warning("the sweep for computers to play failed (tried again quietly): %s", error)
                failing = True
                continue
            if failing:
                log.warning("the sweep for computers to play works again")
                failing = False
            for table in unplayed:
                self.turns.follow(table)

    def unplayed(self) -> list[Table]:  # on the store thread
        """The tables whose computer has the turn and that no process plays (their claim is free)."""
        candidates = self.tables.with_computers()
        alive = {table_id for table_id, _, _ in candidates}
        for table_id in list(self._persons_turn):
            if table_id not in alive:
                del self._persons_turn[table_id]
        found = []
        for table_id, saved_id, version in candidates:
            if self.turns.playing(table_id) or self._persons_turn.get(table_id) == version:
                continue
            if not self.claims.claim(saved_id):
                continue  # a live process plays it
            try:
                table = self.tables.get(table_id)
                if table.session.is_computer_turn:
                    found.append(table)  # its play claims the game again, on the loop, in a moment
                else:
                    self._persons_turn[table_id] = table.version
            finally:
                self.claims.release(saved_id)
        return found
