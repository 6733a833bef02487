"""The end of a game: final sheets, the winners, and how well everyone played."""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Label, Static

from kismet_dice.session import Session
from kismet_dice.strategy import Computer, Proficiency, proficiency
from kismet_dice.tui.widgets import SheetView

COSTLIEST = 3


def winners_line(session: Session) -> str:
    game = session.game
    names = [game.names[seat] for seat in game.winners]
    best = game.total(game.winners[0])
    if len(game.names) == 1:
        return f"{names[0]} scores {best}."
    if len(names) == 1:
        return f"{names[0]} wins with {best}."
    return f"{' and '.join(names)} share the win with {best}."


def proficiency_lines(judged: Proficiency) -> list[str]:
    """Points each player gave away against perfect play, and the costliest decisions."""
    lines = ["How well everyone played (expected points given away against perfect play):"]
    for seat, name in enumerate(judged.names):
        count = len(judged.decisions_of(seat))
        lines.append(f"  {name}: {judged.total_loss(seat):.1f} points in {count} decisions")
    costly = sorted((d for d in judged.decisions if d.loss > 0.005), key=lambda d: -d.loss)[:COSTLIEST]
    if costly:
        lines.append("The costliest decisions:")
    for decision in costly:
        dice = " ".join(map(str, decision.dice))
        rolls = f"{decision.rolls_left} roll{'s' if decision.rolls_left != 1 else ''} left"
        lines.append(
            f"  {judged.names[decision.seat]}, turn {decision.turn}, {dice} with {rolls}: "
            f"{decision.chosen.describe()} instead of {decision.best.describe()}, "
            f"giving away {decision.loss:.1f}"
        )
    return lines


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
            summary = f"The game is over. {winners_line(self.session)}"
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
        except (OSError, ValueError, MemoryError) as error:
            text = f"How well everyone played could not be worked out: {error}"
        else:
            text = "\n".join(proficiency_lines(judged))
        self.app.call_from_thread(self.query_one("#proficiency", Static).update, text)

    def action_done(self) -> None:
        self.app.action_new_game()  # type: ignore[attr-defined]
