"""The end of a game: the winners and totals, how well everyone played, and the final sheets."""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Label, Static
from textual_plotext import PlotextPlot

from kismet_dice.session import Session, narration
from kismet_dice.session.win_chances import COURSE_TITLE, COURSE_X, COURSE_Y, Course, WinChances
from kismet_dice.strategy import Computer, ComputerUnavailable, proficiency
from kismet_dice.tui.screens.strategy import Compiling, Waiting, in_percents, telling
from kismet_dice.tui.widgets import (
    DICE_COLUMNS,
    TABLE_COLUMNS,
    SheetView,
    sheet_width,
    sheets_hint,
    sheets_that_fit,
)

MORE_BELOW = "More below: ↓ or PgDn scrolls."


class EndScreen(Screen[None]):
    """Winners and every total first, then the review (scrollable, and saying so when it does not
    fit); the final sheets beside them, a page at a time when not all fit."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "done", "New game"),
        Binding("s", "next_sheets", "Sheets"),
        Binding("f2", "app.show_hall", "Hall of Fame"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, session: Session, computer: Computer | None) -> None:
        super().__init__()
        self.session = session
        self.computer = computer
        self.page = 0
        self.comparing = False
        """Whether the standings are being worked out (they say how far it is meanwhile)."""
        self.waiting = False
        """Whether that work waits for another process doing it (the progress is then that one's)."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        game = self.session.game
        with Vertical(id="end-left"):
            yield Label(self.session.result(), id="winners", classes="dialog-title")
            totals = "\n".join(
                f"{name}: {game.total(seat)}"
                for seat, name in sorted(enumerate(game.names), key=lambda each: -game.total(each[0]))
            )
            yield Static(totals, id="totals")
            yield Static("", id="narrow")
            yield Static("\n".join(self.session.standings()), id="standings")
            if self.session.assisted and self.session.humans:
                yield Static(narration.ASSISTED, id="assisted")
            with VerticalScroll(id="review"):
                yield Static("", id="proficiency")
                yield PlotextPlot(id="chances-chart")
            yield Static("", id="more")
        with Vertical(id="right"):
            yield Static("", id="sheet-hint")
            yield SheetView()
        yield Footer()

    def on_mount(self) -> None:
        self.redraw()
        self.query_one("#chances-chart").display = False
        self.query_one("#standings").display = bool(self.session.standings())
        if self.computer is not None:
            self.query_one("#proficiency", Static).update("Working out how well everyone played…")
            self.judge(self.computer)
            if self.session.standings_to_work_out:
                self.comparing = True
                self.compare(self.computer)
            if WinChances(self.computer).available and len(self.session.game.names) > 1:
                self.follow_chances(self.computer)
        self.query_one("#review").focus()

    def on_resize(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        game = self.session.game
        players = len(game.names)
        fit = sheets_that_fit(self.size.width - DICE_COLUMNS)
        pages = -(-players // fit)
        self.page %= pages
        shown = tuple(range(self.page * fit, min(players, (self.page + 1) * fit)))
        self.query_one("#right").styles.width = sheet_width(len(shown))
        sheets = [game.sheet(seat) for seat in range(players)]
        self.query_one(SheetView).show(game.names, sheets, None, {}, shown=shown)
        hint = self.query_one("#sheet-hint", Static)
        hint.display = len(shown) < players
        hint.update(sheets_hint(len(shown), players))
        # As at the table: in a narrower terminal the sheets' scores are cut off at the right.
        narrow = self.query_one("#narrow", Static)
        narrow.display = self.size.width < TABLE_COLUMNS
        narrow.update(
            f"The final sheets need {TABLE_COLUMNS} columns (this terminal has {self.size.width}): "
            "widen it to see their scores."
        )
        self.call_after_refresh(self.tell_more)

    def tell_more(self) -> None:
        """Say plainly when the review goes on below the screen, and how to scroll to it."""
        review = self.query_one("#review", VerticalScroll)
        more = self.query_one("#more", Static)
        below = review.max_scroll_y > review.scroll_y
        more.display = below
        more.update(MORE_BELOW)

    def on_mouse_scroll_down(self) -> None:
        self.call_after_refresh(self.tell_more)

    def on_key(self) -> None:
        self.call_after_refresh(self.tell_more)

    def action_next_sheets(self) -> None:
        self.page += 1
        self.redraw()

    @work(thread=True, exclusive=True)
    def judge(self, computer: Computer) -> None:
        # Loading the table (or solving it, the first time) and judging each decision take a while.
        try:
            judged = proficiency(self.session.game, computer.advisor())
        except (ComputerUnavailable, OSError, ValueError, MemoryError) as error:
            text = f"How well everyone played could not be worked out: {error}"
        else:
            text = "\n".join(narration.review(judged))
        self.app.call_from_thread(self.show_review, text)

    @work(thread=True, group="standings")
    def compare(self, computer: Computer) -> None:
        """How each person's total compares with perfect play: the first time on a machine, its
        distribution is worked out (a few seconds once the table is loaded), with progress."""
        progress = in_percents(lambda percent: self.app.call_from_thread(self.show_comparing, percent))
        try:
            with telling(self):
                standings = self.session.work_out_standings(computer, progress)
        except (ComputerUnavailable, OSError, ValueError, MemoryError):
            standings = ()  # the review below says why the computer could not judge
        self.app.call_from_thread(self.show_final_standings, "\n".join(standings))

    def on_compiling(self, _: Compiling) -> None:
        if self.comparing:
            self.show_standings(f"{narration.COMPARING}\n{narration.COMPILING}")

    def on_waiting(self, message: Waiting) -> None:
        self.waiting = message.waiting
        if self.comparing and self.waiting:
            self.show_standings(f"{narration.COMPARING}\n{narration.WAITING}")

    def show_comparing(self, percent: int) -> None:
        """How far the comparing is, still saying whose work it is while it waits for another's."""
        if self.comparing:
            waiting = f"\n{narration.WAITING}" if self.waiting else ""
            self.show_standings(f"{narration.COMPARING} {percent}%{waiting}")

    def show_final_standings(self, text: str) -> None:
        self.comparing = False
        self.show_standings(text)

    def show_standings(self, text: str) -> None:
        standings = self.query_one("#standings", Static)
        standings.update(text)
        standings.display = bool(text)
        self.call_after_refresh(self.tell_more)

    @work(thread=True, group="chances")
    def follow_chances(self, computer: Computer) -> None:
        """Everyone's chance of winning over the game, entry by entry (a second or two)."""
        course = WinChances(computer).course(self.session.game)
        if course is not None:
            self.app.call_from_thread(self.show_chances, course)

    def show_chances(self, course: Course) -> None:
        widget = self.query_one("#chances-chart", PlotextPlot)
        plt = widget.plt
        plt.clear_data()
        plt.clear_figure()
        plt.title(COURSE_TITLE)
        steps = list(range(len(course.chances)))
        for seat, name in enumerate(course.names):
            plt.plot(steps, [100 * step[seat] for step in course.chances], label=name)
        plt.ylim(0, 100)
        plt.xlabel(COURSE_X)
        plt.ylabel(f"{COURSE_Y} (%)")
        widget.display = True
        widget.refresh()
        self.call_after_refresh(self.tell_more)

    def show_review(self, text: str) -> None:
        self.query_one("#proficiency", Static).update(text)
        self.call_after_refresh(self.tell_more)

    async def action_done(self) -> None:
        await self.app.run_action("new_game")
