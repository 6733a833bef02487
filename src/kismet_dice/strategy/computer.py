"""The computer at the table: its players and its advice, from one table loaded on first need.

Loading the stored table takes a moment; solving it, the first time on a machine, about half
a minute. Interfaces ask :attr:`Computer.ready` and call :meth:`Computer.advisor` from a
background thread (with a progress callback) before the first hard move or piece of advice.
If the table can be neither loaded nor computed, :meth:`Computer.advisor` raises
:class:`ComputerUnavailable` and :attr:`Computer.failure` says why, so an interface can say the
computer is unavailable instead of getting ready for ever; a later call tries again.

The ``target`` player also reads the futures of every position (:meth:`Computer.futures`), worked
out once per machine in under a minute and afterwards loaded in an instant; :meth:`Computer.ready_for`
and :meth:`Computer.prepare` cover what a set of levels needs, table and futures together.

The end of a game compares each person's total with perfect play (:meth:`Computer.perfect_play`):
the distribution of its final total, worked out from the table once per machine in a few seconds
and then stored beside it.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

from kismet_dice.strategy.advisor import Advisor
from kismet_dice.strategy.distribution import Distribution, Futures, load_or_compute
from kismet_dice.strategy.players import ComputerPlayer, Goal, Level, computer_player
from kismet_dice.strategy.reference import Reference, reference
from kismet_dice.strategy.ruleset import kismet_rules
from kismet_dice.strategy.solver import Progress
from kismet_dice.strategy.stored_futures import futures_path, load_futures, load_or_compute_futures
from kismet_dice.strategy.table import StrategyTable, load_or_solve, table_path
from kismet_dice.strategy.target import HallPlayer
from kismet_dice.strategy.win_player import WinPlayer
from kismet_dice.strategy.workers import SolveFailed


class ComputerUnavailable(RuntimeError):
    """The strategy table could be neither loaded nor computed; the message is one line for a person."""


class Computer:
    """Computer players of every level and the advisor, sharing one Kismet table.

    >>> Computer().player("easy").level
    <Level.EASY: 'easy'>
    """

    def __init__(
        self,
        directory: Path | None = None,
        table: StrategyTable | None = None,
        futures: Futures | None = None,
        perfect: Distribution | None = None,
    ) -> None:
        self._directory = directory
        self._advisor = Advisor(table) if table is not None else None
        self._lock = threading.Lock()
        self._failure: str | None = None
        self._futures = futures
        # Its own lock: advice and hard moves go on while the futures are worked out (half a minute).
        self._futures_lock = threading.Lock()
        self._perfect = perfect
        self._perfect_lock = threading.Lock()

    @property
    def ready(self) -> bool:
        """Whether the table is loaded, so advice and hard moves come at once."""
        return self._advisor is not None

    @property
    def stored(self) -> bool:
        """Whether the table is loaded or stored on this machine, so getting it takes no solve."""
        return self.ready or table_path(kismet_rules(), self._directory).exists()

    @property
    def failure(self) -> str | None:
        """Why the last attempt to get the table failed (one line for a person), or ``None``:
        before any attempt, while one is under way, and once the table is loaded."""
        return self._failure

    def advisor(self, progress: Progress | None = None) -> Advisor:
        """The advisor, loading (or, the first time, solving) the table if need be.

        Raises :class:`ComputerUnavailable` if the table can be neither loaded nor computed (and
        remembers why in :attr:`failure`); a later call tries again.
        """
        with self._lock:
            if self._advisor is None:
                self._failure = None
                with self._unavailable_without("the strategy table"):
                    table = load_or_solve(kismet_rules(), directory=self._directory, progress=progress)
                advisor = Advisor(table)
                # A turn worked out here, while the interface says the computer is getting ready:
                # the first time on a machine that compiles the turn's loops (a second or more),
                # which the first move did otherwise, on a server within the store's two seconds
                # (it gave up, and the computer stopped playing).
                advisor.turn(0, 0)
                self._advisor = advisor
            return self._advisor

    @contextlib.contextmanager
    def _unavailable_without(self, what: str) -> Iterator[None]:
        """A failure to get ``what`` as :class:`ComputerUnavailable`, remembered in :attr:`failure`."""
        try:
            yield
        except SolveFailed as error:
            self._failure = str(error)
            raise ComputerUnavailable(self._failure) from error
        except MemoryError as error:
            self._failure = f"There is not enough memory for {what}"
            raise ComputerUnavailable(self._failure) from error
        except OSError as error:
            reason = error.strerror or type(error).__name__
            self._failure = f"{what[0].upper()}{what[1:]} could not be loaded or stored ({reason})"
            raise ComputerUnavailable(self._failure) from error

    @property
    def futures_stored(self) -> bool:
        """Whether the futures are loaded or stored on this machine, so getting them takes no
        computation (only loading, an instant)."""
        return self._futures is not None or futures_path(kismet_rules(), self._directory).exists()

    @property
    def futures_building(self) -> bool:
        """Whether the futures are being got now (the first time on a machine: worked out, half a minute)."""
        return self._futures is None and self._futures_lock.locked()

    def stored_futures(self) -> Futures | None:
        """The futures if they are loaded, or stored and the table is loaded (then loaded now,
        memory-mapped: an instant); ``None`` otherwise. Never works them out: advice asks this, and
        must not start half a minute of work a person did not ask for."""
        if self._futures is not None:
            return self._futures
        advisor = self._advisor
        if advisor is None or not futures_path(kismet_rules(), self._directory).exists():
            return None
        found = load_futures(advisor.table, self._directory)
        if found is not None and self._futures is None:
            # Not under the futures' lock, which a computation holds for half a minute: a store that exists
            # is complete (it is renamed into place), and two loads of it map the same files.
            self._futures = found
        return found

    def futures(self, progress: Progress | None = None) -> Futures:
        """The futures of every position (the ``target`` player's), loading the table first if need
        be, and the first time on a machine computing and storing them (half a minute).

        Raises :class:`ComputerUnavailable` (and remembers why in :attr:`failure`) if they can be
        neither loaded nor computed; a later call tries again.
        """
        table = self.advisor(progress).table
        with self._futures_lock:
            if self._futures is None:
                with self._unavailable_without("the chances of every position"):
                    self._futures = load_or_compute_futures(table, progress, self._directory)
                self._failure = None
            return self._futures

    def chart_reference(self, progress: Progress | None = None) -> Reference | None:
        """What the statistics' charts compare with (:func:`~kismet_dice.strategy.reference.reference`:
        stored, or played the first time, seconds, told to ``progress``) when the table is at hand,
        loaded or stored; else ``None``, since a chart is drawn without it rather than after a solve."""
        if not self.stored:
            return None
        try:
            return reference(self.advisor().table, progress=progress)
        except ComputerUnavailable:
            return None

    def perfect_play(self, progress: Progress | None = None) -> Distribution:
        """The distribution of perfect play's final total from an empty sheet, loading the table first
        if need be, and the first time on a machine working it out (a few seconds) and storing it.
        One process at a time works it out; the others wait and load what it stored.

        Raises :class:`ComputerUnavailable` (and remembers why in :attr:`failure`) if it can be
        neither loaded nor computed; a later call tries again.
        """
        table = self.advisor(progress).table
        with self._perfect_lock:
            if self._perfect is None:
                with self._unavailable_without("the distribution of perfect play"):
                    self._perfect = load_or_compute(table, directory=self._directory, progress=progress)
            return self._perfect

    def ready_for(self, levels: Iterable[Level | None]) -> bool:
        """Whether the players of ``levels`` (``None`` for a person) can play at once."""
        wanted = [level for level in levels if level is not None]
        return (self.ready or not any(level.needs_table for level in wanted)) and (
            self._futures is not None or not any(level.needs_futures for level in wanted)
        )

    def prepare(self, levels: Iterable[Level | None], progress: Progress | None = None) -> None:
        """Load (or the first time compute) what the players of ``levels`` need; raises
        :class:`ComputerUnavailable` as :meth:`advisor` and :meth:`futures` do."""
        wanted = [level for level in levels if level is not None]
        if any(level.needs_futures for level in wanted):
            self.futures(progress)
        elif any(level.needs_table for level in wanted):
            self.advisor(progress)

    def needs_table(self, level: Level | str) -> bool:
        return Level.parse(level).needs_table

    def player(self, level: Level | str, goal: Goal | None = None) -> ComputerPlayer:
        """A computer player of ``level``; ``hard`` loads the table if it is not loaded yet, and
        ``target`` the futures too (it plays for the total ``goal()`` says at each decision)."""
        level = Level.parse(level)
        if level is Level.TARGET:
            if goal is None:
                raise ValueError("the target player needs a goal: the total it plays for")
            futures = self.futures()
            return HallPlayer(futures, self.advisor().table, goal)
        if level is Level.WIN:
            return WinPlayer(self.futures(), self.advisor().table)
        return computer_player(level, self.advisor() if level.needs_table else None)
