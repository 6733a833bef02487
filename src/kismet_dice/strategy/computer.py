"""The computer at the table: its players and its advice, from one table loaded on first need.

Loading the stored table takes a moment; solving it, the first time on a machine, about half
a minute. Interfaces ask :attr:`Computer.ready` and call :meth:`Computer.advisor` from a
background thread (with a progress callback) before the first hard move or piece of advice.
"""

from __future__ import annotations

import threading
from pathlib import Path

from kismet_dice.strategy.advisor import Advisor
from kismet_dice.strategy.players import ComputerPlayer, Level, computer_player
from kismet_dice.strategy.ruleset import kismet_rules
from kismet_dice.strategy.solver import Progress
from kismet_dice.strategy.table import StrategyTable, load_or_solve, table_path


class Computer:
    """Computer players of every level and the advisor, sharing one Kismet table.

    >>> Computer().player("easy").level
    <Level.EASY: 'easy'>
    """

    def __init__(self, directory: Path | None = None, table: StrategyTable | None = None) -> None:
        self._directory = directory
        self._advisor = Advisor(table) if table is not None else None
        self._lock = threading.Lock()

    @property
    def ready(self) -> bool:
        """Whether the table is loaded, so advice and hard moves come at once."""
        return self._advisor is not None

    @property
    def stored(self) -> bool:
        """Whether the table is loaded or stored on this machine, so getting it takes no solve."""
        return self.ready or table_path(kismet_rules(), self._directory).exists()

    def advisor(self, progress: Progress | None = None) -> Advisor:
        """The advisor, loading (or, the first time, solving) the table if need be."""
        with self._lock:
            if self._advisor is None:
                self._advisor = Advisor(
                    load_or_solve(kismet_rules(), directory=self._directory, progress=progress)
                )
            return self._advisor

    def needs_table(self, level: Level | str) -> bool:
        return Level.parse(level).needs_table

    def player(self, level: Level | str) -> ComputerPlayer:
        """A computer player of ``level``; ``hard`` loads the table if it is not loaded yet."""
        return computer_player(level, self.advisor() if self.needs_table(level) else None)
