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
from kismet_dice.tui.screens.dialogs import ConfirmScreen

HUMAN = "human"


class NameInput(Input):
    """A player's name; ``?`` opens the help here too, so it is not typed into the name."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character != "?" and super().check_consume_key(key, character)


class SeatRow(Horizontal):
    """One seat of the set-up: a name and who plays it."""

    def __init__(self, seat: Seat, kinds: tuple[str, ...]) -> None:
        super().__init__(classes="seat")
        self.seat = seat
        self.kinds = kinds

    def compose(self) -> ComposeResult:
        yield NameInput(self.seat.name, placeholder="name", max_length=24, classes="seat-name")
        options = [(kind.capitalize() if kind == HUMAN else f"Computer, {kind}", kind) for kind in self.kinds]
        kind = self.seat.level or HUMAN
        yield Select(
            options, value=kind if kind in self.kinds else HUMAN, allow_blank=False, classes="seat-kind"
        )

    def read(self) -> Seat:
        name = self.query_one(Input).value
        kind = self.query_one(Select).value
        return Seat(name, None if kind == HUMAN else Level(str(kind)))


class ResumeList(OptionList):
    """The unfinished games; ``d`` (or delete) asks to discard the highlighted one."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("d,delete", "discard", "Discard")]

    class Discard(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def action_discard(self) -> None:
        if self.highlighted is not None:
            self.post_message(self.Discard(self.highlighted))


def describe_saved(saved: SavedGame) -> str:
    """A saved game as the resume list shows it: players, totals, round, whose turn, when saved."""
    return f"{saved.describe()} · saved {saved.saved.astimezone():%Y-%m-%d %H:%M}"


START_COLUMNS = 76
"""The fewest columns that show the start screen's house rule and buttons on one line each."""
THREE_BUTTONS_COLUMNS = 49
"""The fewest that show three of its buttons side by side with their labels whole; below, two."""


class StartScreen(Screen[None]):
    """Set up a game: one to six seats, each a person or a computer player; the house rule.

    Nothing is lost by leaving this screen, so esc (and q outside a name) quits at once; enter
    starts the game from anywhere but a button, the resume list or a drop-down.
    """

    # Narrower than START_COLUMNS, the house rule's line and the row of five buttons would be cut
    # off at the right (below 70 columns, the Settings button): there the line wraps and the
    # buttons stand in rows of three, or of two on a terminal as narrow as a phone's (kismet.tcss).
    # (Textual types it as an attribute that may be None, not as a class variable, so it cannot be
    # annotated as one here.)
    HORIZONTAL_BREAKPOINTS = [  # noqa: RUF012
        (0, "-narrowest"),
        (THREE_BUTTONS_COLUMNS, "-narrow"),
        (START_COLUMNS, "-wide"),
    ]

    BINDINGS: ClassVar[list[BindingType]] = [
        # An enter typed while the program starts, before it has the terminal, comes as a newline
        # (the terminal turns it into one then): it starts too.
        Binding("enter,ctrl+j", "start", "Start", priority=True),
        # Priority: a name field would take ctrl+a and ctrl+d for moving and deleting.
        Binding("ctrl+a", "add_seat", "Add player", show=False, priority=True),
        Binding("ctrl+d", "remove_seat", "Remove last", show=False, priority=True),
        Binding("question_mark", "help", "Help", key_display="?", priority=True),
        Binding("f1", "rules", "Rules"),
        Binding("f2", "hall", "Hall"),
        Binding("f3", "settings", "Settings"),
        Binding("f4", "stats", "Stats"),
        Binding("escape", "app.quit", "Quit", key_display="esc"),
        Binding("q", "app.quit", "Quit", show=False),
    ]

    # Typing a name is the first thing to do, so the first name has the focus from the moment the
    # screen is composed (the games to resume are one shift+tab away).
    AUTO_FOCUS = "NameInput"

    class Start(Message):
        """The person asked to start a game with this set-up."""

        def __init__(self, setup: Setup) -> None:
            super().__init__()
            self.setup = setup

    class DiscardGame(Message):
        """The person confirmed discarding a saved game."""

        def __init__(self, saved: SavedGame) -> None:
            super().__init__()
            self.saved = saved

    class Resume(Message):
        """The person asked to resume a saved game."""

        def __init__(self, saved: SavedGame) -> None:
            super().__init__()
            self.saved = saved

    def __init__(
        self,
        setup: Setup,
        unfinished: tuple[SavedGame, ...],
        *,
        computer_levels: bool,
        resuming: bool = False,
    ) -> None:
        super().__init__()
        self.setup = setup
        self.resuming = resuming
        self.unfinished = unfinished
        self.kinds = (HUMAN, *LEVELS) if computer_levels else (HUMAN,)

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        if self.unfinished:
            with Vertical(id="resume"):
                yield Label(
                    "Resume a game: shift+tab, ↑↓ and enter, or click; d discards one.",
                    classes="dialog-title",
                )
                yield ResumeList(
                    *(Option(describe_saved(saved), str(saved.id)) for saved in self.unfinished),
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
            with Horizontal(id="actions", classes="buttons"):
                yield Button("Start (enter)", id="start", variant="primary")
                yield Button("Help (?)", id="help")
                yield Button("Rules (F1)", id="rules")
                yield Button("Hall (F2)", id="hall")
                yield Button("Settings (F3)", id="settings")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Kismet"
        # The person was just at the list of games (discarding one of them): it keeps the focus.
        # Set at once, not later as focus() does, so a key pressed meanwhile goes there too.
        lists = self.query(ResumeList)
        if self.resuming and lists:
            self.set_focus(lists.first())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "start":
            # A button presses itself, the resume list resumes, a closed drop-down opens and an
            # open one picks: enter there is the widget's own, never a start by mistake.
            focused = self.focused
            if isinstance(focused, (Button, OptionList, Select)) or any(
                select.expanded for select in self.query(Select)
            ):
                return False
        return True

    def on_resume_list_discard(self, message: ResumeList.Discard) -> None:
        saved = self.unfinished[message.index]
        question = f"Discard this unfinished game for good?\n{describe_saved(saved)}"

        def answer(yes: bool | None) -> None:
            if yes:
                self.post_message(self.DiscardGame(saved))

        self.app.push_screen(ConfirmScreen(question), answer)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.post_message(self.Resume(self.unfinished[event.option_index]))

    def read_setup(self) -> Setup:
        seats = tuple(row.read() for row in self.query(SeatRow))
        rules = HouseRules(zero_kismet_counts=self.query_one("#zero-kismet", Checkbox).value)
        return Setup(seats, rules)

    def action_start(self) -> None:
        # Enter is the screen's, taken as soon as it comes, while keys typed just before it may
        # still wait for the field they were typed in (all of them at once, when typed while the
        # program started): the set-up is read once that field has had them.
        focused = self.focused
        if focused is None:
            self.start_now()
        else:
            focused.call_later(self.start_now)

    def start_now(self) -> None:
        try:
            setup = self.read_setup().checked()
        except IllegalAction as error:
            self.query_one("#problem", Label).update(f"{str(error).capitalize()}.")
            return
        self.post_message(self.Start(setup))

    def rename_default(self, old: str, new: str) -> None:
        """The settings gave the first player a new default name: a first seat still called by
        the old one takes it (a name typed by the person stays)."""
        first = self.query(SeatRow).first().query_one(NameInput)
        if first.value.strip() == old:
            first.value = new

    def action_add_seat(self) -> None:
        rows = list(self.query(SeatRow))
        if len(rows) >= MAX_SEATS:
            self.query_one("#problem", Label).update(f"A table has at most {MAX_SEATS} players.")
            return
        taken = {row.read().name for row in rows}
        first = len(rows) + 1
        name = next(f"Player {n}" for n in range(first, first + MAX_SEATS + 1) if f"Player {n}" not in taken)
        self.query_one("#seats").mount(SeatRow(Seat(name), self.kinds))

    def action_remove_seat(self) -> None:
        rows = list(self.query(SeatRow))
        if len(rows) > 1:
            rows[-1].remove()

    async def action_hall(self) -> None:
        await self.app.run_action("show_hall")

    async def action_stats(self) -> None:
        await self.app.run_action("show_stats")

    def action_rules(self) -> None:
        self.app.push_screen("rules")

    def action_help(self) -> None:
        self.app.push_screen("help")

    async def action_settings(self) -> None:
        await self.app.run_action("settings")

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        # The methods themselves: a button's press is never refused as enter on a button is.
        actions = {
            "start": self.action_start,
            "add": self.action_add_seat,
            "remove": self.action_remove_seat,
            "help": self.action_help,
            "rules": self.action_rules,
        }
        if event.button.id in actions:
            actions[event.button.id]()
        elif event.button.id == "hall":
            await self.action_hall()
        elif event.button.id == "settings":
            await self.action_settings()
