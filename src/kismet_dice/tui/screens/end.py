"""The end of a game: final sheets and the winners."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Label, Static

from kismet_dice.session import Session
from kismet_dice.tui.widgets import SheetView


def winners_line(session: Session) -> str:
    game = session.game
    names = [game.names[seat] for seat in game.winners]
    best = game.total(game.winners[0])
    if len(game.names) == 1:
        return f"{names[0]} scores {best}."
    if len(names) == 1:
        return f"{names[0]} wins with {best}."
    return f"{' and '.join(names)} share the win with {best}."


class EndScreen(Screen[None]):
    """Final sheets and winners; more (proficiency, Hall of Fame) is added below by the app."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "done", "New game"),
        Binding("f2", "app.show_hall", "Hall of Fame"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, session: Session, notes: list[str]) -> None:
        super().__init__()
        self.session = session
        self.notes = notes

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Vertical(id="end"):
            yield Label(
                f"The game is over. {winners_line(self.session)}", id="winners", classes="dialog-title"
            )
            yield SheetView()
            yield Static("\n".join(self.notes), id="notes")
        yield Footer()

    def on_mount(self) -> None:
        game = self.session.game
        sheets = [game.sheet(seat) for seat in range(len(game.names))]
        self.query_one(SheetView).show(game.names, sheets, None, {})

    def action_done(self) -> None:
        self.app.action_new_game()  # type: ignore[attr-defined]
