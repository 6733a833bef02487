"""The computer at the table: its players and its advice, from one table loaded on first need.

Loading the stored table takes a moment; solving it, the first time on a machine, about half
a minute. Interfaces ask :attr:`Computer.ready` and call :meth:`Computer.advisor` from a
background thread (with a progress callback) before the first hard move or piece of advice.
If the table can be neither loaded nor computed, :meth:`Computer.advisor` raises
:class:`ComputerUnavailable` and :attr:`Computer.failure` says why, so an interface can say the
computer is unavailable instead of getting ready for ever; a later call tries again.
"""

from __future__ import annotations

import threading
from pathlib import Path

from kismet_dice.strategy.advisor import Advisor
from kismet_dice.strategy.players import ComputerPlayer, Level, computer_player
from kismet_dice.strategy.ruleset import kismet_rules
from kismet_dice.strategy.solver import Progress
from kismet_dice.strategy.table import StrategyTable, load_or_solve, table_path
from kismet_dice.strategy.workers import SolveFailed


class ComputerUnavailable(RuntimeError):
    """The strategy table could be neither loaded nor computed; the message is one line for a person."""


class Computer:
    """Computer players of every level and the advisor, sharing one Kismet table.

    >>> Computer().player("easy").level
    <Level.EASY: 'easy'>
    """

    def __init__(self, directory: Path | None = None, table: StrategyTable | None = None) -> None:
        self._directory = directory
        self._advisor = Advisor(table) if table is not None else None
        self._lock = threading.Lock()
        self._failure: str | None = None

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
                try:
                    table = load_or_solve(kismet_rules(), directory=self._directory, progress=progress)
                except SolveFailed as error:
                    self._failure = str(error)
                    raise ComputerUnavailable(self._failure) from error
                except MemoryError as error:
                    self._failure = "There is not enough memory for the strategy table"
                    raise ComputerUnavailable(self._failure) from error
                except OSError as error:
                    reason = error.strerror or type(error).__name__
                    self._failure = f"The strategy table could not be loaded or stored ({reason})"
                    raise ComputerUnavailable(self._failure) from error
                self._advisor = Advisor(table)
            return self._advisor

    def needs_table(self, level: Level | str) -> bool:
        return Level.parse(level).needs_table

    def player(self, level: Level | str) -> ComputerPlayer:
        """A computer player of ``level``; ``hard`` loads the table if it is not loaded yet."""
        return computer_player(level, self.advisor() if self.needs_table(level) else None)
