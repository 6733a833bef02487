"""Screens of the computer's strategy: getting the table ready, and advice."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Label, ProgressBar, Static

from kismet_dice.rules import Dice
from kismet_dice.session import HallAdvice, HallChances, narration
from kismet_dice.strategy import Advisor, Computer, ComputerUnavailable, Level, Option
from kismet_dice.strategy.compiled import telling_compiles
from kismet_dice.strategy.solver import Progress
from kismet_dice.strategy.table import telling_waits


class Compiling(Message):
    """The strategy began to compile, the first run on this machine: its work takes some seconds
    more, which the screen doing it says."""


class Waiting(Message):
    """Another process on this machine is doing the work the screen needs (another game started at
    once, say): this one waits for it, and the progress shown is that one's, which the screen says
    (``waiting``), or that wait is over (not ``waiting``)."""

    def __init__(self, waiting: bool) -> None:
        super().__init__()
        self.waiting = waiting


@contextmanager
def telling(screen: Screen[Any]) -> Iterator[None]:
    """While a screen's work runs: a :class:`Compiling` message to the screen each time the strategy
    begins to compile, and a :class:`Waiting` one each time the work waits for another process's
    (posted from the working thread, as messages may be)."""
    with (
        telling_compiles(lambda: screen.post_message(Compiling())),
        telling_waits(lambda waiting: screen.post_message(Waiting(waiting))),
    ):
        yield


def in_percents(show: Callable[[int], object]) -> Progress:
    """A progress callback that calls ``show`` with each whole percent done, once: a screen redrawn
    for each percent, not for each of the work's steps (thousands).

    >>> shown = []
    >>> progress = in_percents(shown.append)
    >>> for done in (0, 1, 2, 50, 51, 200):
    ...     progress(done, 200)
    >>> shown
    [0, 1, 25, 100]
    """
    said = [-1]

    def progress(done: int, total: int) -> None:
        percent = 100 * done // max(total, 1)
        if percent > said[0]:
            said[0] = percent
            show(percent)

    return progress


class PreparingScreen(ModalScreen[bool]):
    """Loads what the computer players of ``levels`` need (the table, solved the first time in a few
    seconds; for a target player the futures of every position, worked out the first time in a
    under a minute) with progress.

    Dismissed with True once the computer is ready, False if loading failed or the person went
    back (escape): the work then goes on in the background, so the next try finds it done or
    further on.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back")]

    def __init__(self, computer: Computer, reason: str, levels: Sequence[Level] = (Level.HARD,)) -> None:
        super().__init__(classes="dialog-screen")
        self.computer = computer
        self.reason = reason
        self.levels = tuple(levels)
        self._left = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("The computer is getting ready", classes="dialog-title")
            yield Static(self.reason)
            yield Static(
                "The first time on this machine it works out the best move of every position "
                "(a few seconds); after that it only loads them."
            )
            if any(level.needs_futures for level in self.levels) and not self.computer.futures_stored:
                yield Static(
                    "A target player also needs the chances from every position: working them out "
                    "takes under a minute, once. Escape goes back; the work goes on meanwhile."
                )
            compiling = Static(narration.COMPILING, id="compiling")
            compiling.display = False  # until the strategy compiles, if it does
            yield compiling
            waiting = Static(narration.WAITING, id="waiting")
            waiting.display = False  # until the work waits for another process's, if it does
            yield waiting
            yield ProgressBar(total=None, show_eta=False, id="preparing")

    def on_mount(self) -> None:
        self.prepare()

    def on_compiling(self, _: Compiling) -> None:
        self.query_one("#compiling").display = True

    def on_waiting(self, message: Waiting) -> None:
        self.query_one("#waiting").display = message.waiting

    def action_back(self) -> None:
        self._left = True
        self.dismiss(False)

    def _progress(self, done: int, total: int) -> None:
        if not self._left:
            self.query_one(ProgressBar).update(total=total, progress=done)

    def _end(self, ready: bool) -> None:
        if not self._left:
            self._left = True
            self.dismiss(ready)

    def _fail(self, error: Exception) -> None:
        self.app.notify(f"The computer could not get ready: {error}", severity="error")
        self._end(False)

    @work(thread=True, exclusive=True)
    def prepare(self) -> None:
        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(self._progress, done, total)

        try:
            with telling(self):
                self.computer.prepare(self.levels, progress)
        except (ComputerUnavailable, OSError, ValueError, MemoryError) as error:
            self.app.call_from_thread(self._fail, error)
            return
        self.app.call_from_thread(self._end, True)


def option_text(option: Option, dice: Dice) -> str:
    """An option in words, as every interface tells it, capitalised for a list."""
    text = narration.option(option, dice)
    return text[0].upper() + text[1:]


TABLE_ROWS = 16
"""The most rows the advice table takes (its header included); more scroll."""
NOT_TABLE = 15
"""The screen rows the advice dialog needs around its table: borders, padding, the title and the
lines under it, at most."""


class AdviceScreen(ModalScreen[Option | None]):
    """The advisor's options, best first and highlighted; enter plays the highlighted one.

    Beside each option's expected total, its chance of a Hall of Fame total (``hall``), worked out
    by ``chances`` in a worker thread when it is not known yet: the screen shows at once and
    fills that column in when the chances are in. Without a Hall of Fame bar (no list, fewer than
    ten entries, too early in the game) there is no such column, and one line says why. The option
    with the best chance is marked "best for the Hall of Fame", and shown even below the first
    ``shown`` options.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,h,q", "close", "Close"),
        Binding("enter", "play", "Play it"),
    ]

    def __init__(
        self,
        options: tuple[Option, ...],
        dice: Dice,
        shown: int = 12,
        *,
        hall: HallAdvice | None = None,
        chances: HallChances | None = None,
        advisor: Advisor | None = None,
        win: Callable[[], tuple[float, ...] | None] | None = None,
    ) -> None:
        super().__init__(classes="dialog-screen")
        # Works out each option's chance of winning (in a worker thread), where it can be known.
        self._win = win
        self._win_chances: tuple[float, ...] | None = None
        self.dice = dice
        self.every = options
        self.first = shown
        # The ranks (in ``options``) of the rows shown, one row each: the first ``shown``, and the
        # best for the Hall of Fame wherever it ranks (HallAdvice.shown), once known.
        self.ranks = list(range(min(shown, len(options)))) if hall is None else list(hall.shown(shown))
        self.hall = hall
        self._chances = chances
        self._advisor = advisor

    @property
    def options(self) -> list[Option]:
        """The options shown, one per row."""
        return [self.every[rank] for rank in self.ranks]

    @property
    def hidden(self) -> int:
        return len(self.every) - len(self.ranks)

    def _more_line(self) -> str:
        return narration.advice_keys(self.hidden)

    def _best_for_hall(self) -> int | None:
        return None if self.hall is None else self.hall.best_for_hall

    def _cells(self, rank: int, heading: str | None) -> list[Text]:
        option = self.every[rank]
        style = "bold #1b7a2e" if rank == 0 else ""
        mark = narration.BEST if rank == 0 else str(rank + 1)
        loss = narration.gives_away(self.every[0].expected, option.expected, rank)
        cells = [
            Text(mark, style=style),
            Text(option_text(option, self.dice), style=style),
            Text(f"{option.expected:.2f}", style=style, justify="right"),
            Text(loss, style=style, justify="right"),
        ]
        if heading is not None:
            cells.append(self._chance_cell(rank))
        if self._win is not None:
            cells.append(self._win_cell(rank))
        return cells

    def _win_cell(self, rank: int) -> Text:
        found = self._win_chances
        text = "…" if found is None else f"{found[rank]:.1%}"
        return Text(text, style="bold #1b7a2e" if rank == 0 else "", justify="right")

    @work(thread=True, group="win")
    def work_out_win(self) -> None:
        """Each option's chance of winning, off the event loop (milliseconds to a second)."""
        if self._win is None:
            return
        found = self._win()
        self.app.call_from_thread(self._show_win, found)

    def _show_win(self, found: tuple[float, ...] | None) -> None:
        table = self.query_one(DataTable)
        self._win_chances = found
        for rank in self.ranks:
            cell = self._win_cell(rank) if found is not None else Text("—", justify="right")
            table.update_cell(str(rank), "win", cell)

    def compose(self) -> ComposeResult:
        hall = self.hall
        heading = None if hall is None else hall.heading
        with Vertical(classes="dialog", id="advice"):
            yield Label(narration.ADVICE_TITLE, classes="dialog-title")
            table: DataTable[Text] = DataTable(cursor_type="row", id="advice-table")
            table.add_column("", key="rank")
            for column, key in zip(narration.ADVICE_COLUMNS, ("option", "expected", "loss"), strict=True):
                table.add_column(column, key=key)
            if heading is not None:
                table.add_column(heading, key="chance")
            if self._win is not None:
                table.add_column(narration.WIN_COLUMN, key="win")
            for rank in self.ranks:
                table.add_row(*self._cells(rank, heading), key=str(rank))
            yield table
            yield Static(self._more_line(), id="advice-more")
            yield Static(self._hall_line(), id="hall-line")
            yield Static(self._hall_tip(), id="hall-tip")

    def on_resize(self, event: events.Resize) -> None:
        # The lines under the table (how to play an option, the Hall of Fame line, the tip) must
        # show at 80x24 too: there the table gives up rows and scrolls.
        self.query_one(DataTable).styles.max_height = max(4, min(TABLE_ROWS, event.size.height - NOT_TABLE))

    def _chance_cell(self, rank: int) -> Text:
        found = None if self.hall is None else self.hall.chance(rank)
        if found is None:
            return Text("…", justify="right")
        if rank == self._best_for_hall():
            return Text(f"{found:.1%} {narration.BEST_FOR_HALL}", style="bold #1b5e9a", justify="right")
        return Text(f"{found:.1%}", style="bold #1b7a2e" if rank == 0 else "", justify="right")

    def _hall_line(self) -> str:
        return "" if self.hall is None else self.hall.line or ""

    def _hall_tip(self) -> str:
        return "" if self.hall is None else self.hall.tip or ""

    @work(thread=True, exclusive=True)
    def work_out(self) -> None:
        """The chances of a Hall of Fame total, off the event loop (a pass of a few seconds at most)."""
        hall, chances, advisor = self.hall, self._chances, self._advisor
        if hall is None or chances is None or advisor is None:
            return
        try:
            answered = chances.work_out(hall, advisor)
        except (ValueError, MemoryError) as error:  # IllegalAction is a ValueError
            self.app.call_from_thread(self._show_failure, str(error))
            return
        self.app.call_from_thread(self._show_chances, answered)

    def _show_chances(self, answered: HallAdvice) -> None:
        self.hall = answered
        table = self.query_one(DataTable)
        for rank in self.ranks:
            table.update_cell(str(rank), "chance", self._chance_cell(rank))
        for rank in answered.shown(self.first):
            if rank not in self.ranks:  # the best for the Hall of Fame, further down
                self.ranks.append(rank)
                table.add_row(*self._cells(rank, answered.heading), key=str(rank))
        self.query_one("#advice-more", Static).update(self._more_line())
        self.query_one("#hall-line", Static).update(self._hall_line())
        self.query_one("#hall-tip", Static).update(self._hall_tip())

    def _show_failure(self, reason: str) -> None:
        self.query_one("#hall-line", Static).update(f"The chances could not be worked out: {reason}")

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        if self.hall is not None and self.hall.pending:
            self.work_out()
        if self._win is not None:
            self.work_out_win()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.dismiss(self.options[event.cursor_row])

    def action_play(self) -> None:
        self.dismiss(self.options[self.query_one(DataTable).cursor_row])

    def action_close(self) -> None:
        self.dismiss(None)
