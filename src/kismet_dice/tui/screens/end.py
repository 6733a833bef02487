"""The end of a game: final sheets, the winners, and how well everyone played."""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Label, Static

from kismet_dice.session import Session, narration
from kismet_dice.strategy import Computer, ComputerUnavailable, proficiency
from kismet_dice.tui.widgets import SheetView


class EndScreen(Screen[None]):
    """Final sheets and winners, then the proficiency summary once the computer has judged."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "done", "New game"),
        Binding("f2", "app.show_hall", "Hall of Fame"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, session: Session, computer: Computer | None) -> None:
        super().__init__()
        self.session = session
        self.computer = computer

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with VerticalScroll(id="end"):
            summary = self.session.result()
            yield Label(summary, id="winners", classes="dialog-title")
            yield SheetView()
            yield Static("", id="proficiency")
        yield Footer()

    def on_mount(self) -> None:
        game = self.session.game
        sheets = [game.sheet(seat) for seat in range(len(game.names))]
        self.query_one(SheetView).show(game.names, sheets, None, {})
        if self.computer is not None:
            self.query_one("#proficiency", Static).update("Working out how well everyone played…")
            self.judge(self.computer)

    @work(thread=True, exclusive=True)
    def judge(self, computer: Computer) -> None:
        # Loading the table (or solving it, the first time) and judging each decision take a while.
        try:
            judged = proficiency(self.session.game, computer.advisor())
        except (ComputerUnavailable, OSError, ValueError, MemoryError) as error:
            text = f"How well everyone played could not be worked out: {error}"
        else:
            text = "\n".join(narration.review(judged))
        self.app.call_from_thread(self.query_one("#proficiency", Static).update, text)

    async def action_done(self) -> None:
        await self.app.run_action("new_game")
