"""The start screen: set up a new game, resume one, or look at the Hall of Fame."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Header, Input, Label, OptionList, Select
from textual.widgets.option_list import Option

from kismet_dice.game import HouseRules
from kismet_dice.rules import IllegalAction
from kismet_dice.session import MAX_SEATS, Seat, Setup
from kismet_dice.storage import SavedGame
from kismet_dice.strategy import LEVELS, Level

HUMAN = "human"


class SeatRow(Horizontal):
    """One seat of the set-up: a name and who plays it."""

    def __init__(self, seat: Seat, kinds: tuple[str, ...]) -> None:
        super().__init__(classes="seat")
        self.seat = seat
        self.kinds = kinds

    def compose(self) -> ComposeResult:
        yield Input(self.seat.name, placeholder="name", max_length=24, classes="seat-name")
        options = [(kind.capitalize() if kind == HUMAN else f"Computer, {kind}", kind) for kind in self.kinds]
        kind = self.seat.level or HUMAN
        yield Select(
            options, value=kind if kind in self.kinds else HUMAN, allow_blank=False, classes="seat-kind"
        )

    def read(self) -> Seat:
        name = self.query_one(Input).value
        kind = self.query_one(Select).value
        return Seat(name, None if kind == HUMAN else Level(str(kind)))


class StartScreen(Screen[None]):
    """Set up a game: one to six seats, each a person or a computer player; the house rule."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "Start", key_display="enter"),
        Binding("ctrl+a", "add_seat", "Add player"),
        Binding("ctrl+d", "remove_seat", "Remove last"),
        Binding("f2", "hall", "Hall of Fame"),
        Binding("f1", "rules", "Rules"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    class Start(Message):
        """The person asked to start a game with this set-up."""

        def __init__(self, setup: Setup) -> None:
            super().__init__()
            self.setup = setup

    class Resume(Message):
        """The person asked to resume a saved game."""

        def __init__(self, saved: SavedGame) -> None:
            super().__init__()
            self.saved = saved

    def __init__(self, setup: Setup, unfinished: tuple[SavedGame, ...], *, computer_levels: bool) -> None:
        super().__init__()
        self.setup = setup
        self.unfinished = unfinished
        self.kinds = (HUMAN, *LEVELS) if computer_levels else (HUMAN,)

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        if self.unfinished:
            with Vertical(id="resume"):
                yield Label("Resume an unfinished game (↑↓ and enter, or click):", classes="dialog-title")
                yield OptionList(
                    *(
                        Option(
                            f"{saved.describe()} · saved {saved.saved.astimezone():%Y-%m-%d %H:%M}",
                            str(saved.id),
                        )
                        for saved in self.unfinished
                    ),
                    id="unfinished",
                )
        with Vertical(id="setup"):
            yield Label("New game", classes="dialog-title")
            with Vertical(id="seats"):
                for seat in self.setup.seats:
                    yield SeatRow(seat, self.kinds)
            with Horizontal(classes="buttons"):
                yield Button("Add player", id="add")
                yield Button("Remove last", id="remove")
            yield Checkbox(
                "House rule: a zero in the Kismet box counts for the second Kismet",
                self.setup.house_rules.zero_kismet_counts,
                id="zero-kismet",
            )
            yield Label("", id="problem", classes="problem")
            with Horizontal(classes="buttons"):
                yield Button("Start (enter)", id="start", variant="primary")
                yield Button("Hall of Fame (F2)", id="hall")
                yield Button("Rules (F1)", id="rules")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Kismet"
        if self.unfinished:
            self.query_one(OptionList).focus()
        else:
            self.query_one("#start", Button).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.post_message(self.Resume(self.unfinished[event.option_index]))

    def read_setup(self) -> Setup:
        seats = tuple(row.read() for row in self.query(SeatRow))
        rules = HouseRules(zero_kismet_counts=self.query_one("#zero-kismet", Checkbox).value)
        return Setup(seats, rules)

    def action_start(self) -> None:
        try:
            setup = self.read_setup().checked()
        except IllegalAction as error:
            self.query_one("#problem", Label).update(f"{str(error).capitalize()}.")
            return
        self.post_message(self.Start(setup))

    def action_add_seat(self) -> None:
        rows = list(self.query(SeatRow))
        if len(rows) >= MAX_SEATS:
            self.query_one("#problem", Label).update(f"A table has at most {MAX_SEATS} players.")
            return
        taken = {row.read().name for row in rows}
        name = next(f"Player {n}" for n in range(1, MAX_SEATS + 2) if f"Player {n}" not in taken)
        self.query_one("#seats").mount(SeatRow(Seat(name), self.kinds))

    def action_remove_seat(self) -> None:
        rows = list(self.query(SeatRow))
        if len(rows) > 1:
            rows[-1].remove()

    async def action_hall(self) -> None:
        await self.app.run_action("show_hall")

    def action_rules(self) -> None:
        from kismet_dice.tui.screens.dialogs import RulesScreen

        self.app.push_screen(RulesScreen())

    def on_input_submitted(self) -> None:
        self.action_start()

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        await self.run_action(
            {
                "start": "start",
                "add": "add_seat",
                "remove": "remove_seat",
                "hall": "hall",
                "rules": "rules",
            }[event.button.id or ""]
        )
