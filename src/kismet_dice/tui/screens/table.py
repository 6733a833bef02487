"""The table: the dice, every sheet, and the keys to play a game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from kismet_dice.game import Game, Rolled, RollOff, Score, Scored, SecondKismet
from kismet_dice.rules import Box, IllegalAction
from kismet_dice.session import COMPUTER_PACE, HallChances, Session, Told, Unsaved, narration
from kismet_dice.session.win_chances import MODEL as WIN_MODEL
from kismet_dice.session.win_chances import WinChances
from kismet_dice.session.win_chances import words as win_words
from kismet_dice.strategy import Computer, Option, hold_for
from kismet_dice.tui.screens.dialogs import (
    ConfirmScreen,
    NoticeScreen,
    RollOffScreen,
)
from kismet_dice.tui.screens.strategy import AdviceScreen, PreparingScreen
from kismet_dice.tui.widgets import (
    BOX_OF_KEY,
    DICE_COLUMNS,
    KEY_OF_BOX,
    TABLE_COLUMNS,
    DiceTray,
    DieView,
    SheetView,
    Status,
    StoryLog,
    sheet_width,
    sheets_hint,
    sheets_that_fit,
    show_text,
)


def _hold_bindings() -> list[Binding]:
    # One footer entry for the five hold keys.
    return [Binding(str(n), f"hold({n - 1})", "Hold", key_display="1-5", show=n == 1) for n in range(1, 6)]


def _box_bindings() -> list[Binding]:
    return [Binding(key, f"box('{box.name}')", box.label, show=False) for key, box in BOX_OF_KEY.items()]


class TableScreen(Screen[None]):
    """A game in progress. Everything shown is drawn from the session after every change.

    The dice a person means to hold, the box chosen for entry and which sheets are shown are
    this screen's own; the roll carries the held dice. The screen tells the app that the game
    is over, or that the person leaves, by messages.

    Entering a box takes two steps, since a filled box never changes: a box's letter, ↑↓ or a
    click chooses it and shows what it would score; the same letter, Enter or a second click
    enters it. With ``enter_at_once`` the first step enters (a zero is still confirmed).
    """

    class GameOver(Message):
        """The game has ended: the app shows the end and asks for Hall of Fame names."""

        def __init__(self, session: Session) -> None:
            super().__init__()
            self.session = session

    class Leave(Message):
        """The person leaves the table for the start screen (the game stays saved, to resume)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *_hold_bindings(),
        Binding("space,r", "roll", "Roll", key_display="space"),
        Binding("enter", "enter_choice", "Enter", key_display="enter"),
        *_box_bindings(),
        Binding("escape", "drop_choice", "Drop choice", show=False),
        Binding("h", "advice", "Advice"),
        Binding("s", "next_sheets", "Sheets"),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("f1", "rules", "Rules"),
        Binding("f2", "app.show_hall", "Hall of Fame", show=False),
        Binding("q", "quit_game", "Quit"),
    ]

    # The sheet has the focus from the moment the screen is composed, so ↑↓ pressed at once
    # move its choice rather than scroll the log, the first widget that takes the focus.
    AUTO_FOCUS = "SheetView"

    def __init__(
        self,
        session: Session,
        *,
        computer: Computer | None = None,
        pace: float = COMPUTER_PACE,
        enter_at_once: bool = False,
        hall_chances: HallChances | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.computer = computer
        # Advice's chances of a Hall of Fame total, remembered for the turn (and shared by the app).
        self.hall_chances = hall_chances if hall_chances is not None else HallChances(computer)
        # Everyone's chance of winning, where the futures of every position are on this machine.
        self.win_chances = WinChances(computer)
        self._model_told = False
        self.pace = pace
        self.enter_at_once = enter_at_once
        self.hold: frozenset[int] = frozenset()
        self.chosen: Box | None = None
        self.page = 0
        self._page_turn: int | None = None
        self._page_fit = 0
        self._cursor_box: Box | None = Box.ONES
        self._told_saving = False

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Vertical(id="left"):
            yield DiceTray(id="tray")
            yield Status(id="status")
            yield Static("", id="chances")
            yield Static("", id="choice")
            yield StoryLog(id="log")
        with Vertical(id="right"):
            yield Static("", id="sheet-hint")
            yield SheetView()
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Kismet"
        self.query_one(SheetView).enter_at_once = self.enter_at_once
        game = self.session.game
        fresh = not any(isinstance(event, (Rolled, Scored)) for event in game.history)
        if fresh and len(game.names) > 1:
            # Before the table is first drawn, so that its status says a computer that goes first
            # waits for the roll-off to be closed (it does), not that it is thinking.
            rounds = tuple(event.faces for event in game.history if isinstance(event, RollOff))
            self.app.push_screen(RollOffScreen(game.names, rounds, game.first_player))
        self.redraw()
        self._tell(self.session.story(), announce=False)
        self.query_one("#chances", Static).display = False
        self.update_chances()
        self.schedule_computer()

    def on_resize(self) -> None:
        self.redraw()

    # --- drawing ------------------------------------------------------------------------

    def fitting(self) -> int:
        """How many sheets fit beside the dice: the dice and the log keep their columns."""
        return sheets_that_fit(self.size.width - DICE_COLUMNS)

    def shown_seats(self) -> tuple[int, ...]:
        """The seats whose sheets are shown: a page of them, the current player's at each turn."""
        players = len(self.session.game.names)
        fit = self.fitting()
        pages = -(-players // fit)
        current = self.session.game.current_player
        if current is not None and (current != self._page_turn or fit != self._page_fit):
            # A new turn, or a terminal resized to show more or fewer sheets, shows the sheet of
            # the player whose turn it is.
            self._page_turn = current
            self.page = current // fit
        self._page_fit = fit
        self.page %= pages
        return tuple(range(self.page * fit, min(players, (self.page + 1) * fit)))

    def redraw(self) -> None:
        game = self.session.game
        players = len(game.names)
        shown = self.shown_seats()
        self.query_one("#right").styles.width = sheet_width(len(shown))
        self.query_one(DiceTray).show(game.dice, self.held())
        sheets = [game.sheet(seat) for seat in range(players)]
        options = game.options() if not self.session.is_computer_turn else {}
        if self.chosen is not None and self.chosen not in options:
            self.chosen = None
        self.query_one(SheetView).show(
            game.names, sheets, game.current_player, options, chosen=self.chosen, shown=shown
        )
        show_text(self.query_one(Status), self.status_text())
        hint = self.query_one("#sheet-hint", Static)
        hint.display = len(shown) < players
        if len(shown) < players:
            show_text(hint, sheets_hint(len(shown), players))
        choice = self.query_one("#choice", Static)
        if choice.display != (self.chosen is not None):
            # The log gets shorter or taller: keep its latest line in view.
            log = self.query_one(StoryLog)
            self.call_after_refresh(log.scroll_end, animate=False)
        choice.display = self.chosen is not None
        show_text(choice, self.choice_text())

    def choice_text(self) -> str:
        """What the chosen box would score, and how to enter it or drop it."""
        box = self.chosen
        if box is None:
            return ""
        points = self.session.game.options().get(box, 0)
        key = KEY_OF_BOX[box]
        if points:
            return f"Chosen: {box.label}, {points} points.\n{key} again or enter enters it; esc drops it."
        return (
            f"Chosen: {box.label} would score 0: entering it puts a 0 there for good.\n"
            f"{key} again or enter enters the 0; esc drops it."
        )

    def held(self) -> tuple[int, ...] | frozenset[int]:
        """The dice shown held: a person's choice, or what the computer kept at its last roll."""
        if not self.session.is_computer_turn:
            return self.hold
        last = self.session.game.history[-1] if self.session.game.dice else None
        return last.hold if isinstance(last, Rolled) else ()

    def status_text(self) -> str:
        game = self.session.game
        seat = self.session.current_seat
        if seat is None:
            return "The game is over."
        whose = f"{seat.describe()}'s turn" if len(game.names) > 1 else f"{seat.name}'s turn"
        if seat.is_computer:
            # A computer plays only while the table is in front (see computer_step).
            action = "thinking…" if self.app.screen is self else "waits for the dialog above to close"
        elif not game.dice:
            action = "press space to roll"
        else:
            choose = "a-p or ↑↓ choose a box" if not self.enter_at_once else "a-p enter a box"
            if game.rolls_left:
                action = f"{narration.rolls_left(game.rolls_left)} · 1-5 hold · space rolls · {choose}"
            else:
                action = f"no rolls left: {choose}"
        assisted = " · assisted" if self.session.assisted else ""
        # In a narrower terminal the sheet is cut off at the right, and its scores with it.
        narrow = (
            f"The sheet needs {TABLE_COLUMNS} columns (this terminal has {self.size.width}): "
            "widen it, or play with kismet play --plain.\n"
            if self.size.width < TABLE_COLUMNS
            else ""
        )
        current = game.current_player
        assert current is not None
        needed = narration.bonus_needed(game.sheet(current))
        bonus_line = f"\nBonus: {needed}" if needed else ""
        return f"{narrow}Round {game.round} · {whose}{assisted}\n{action}{bonus_line}"

    def _log(self, line: str) -> None:
        self.query_one(StoryLog).tell(line)

    def _tell(self, told: Sequence[Told], *, announce: bool = True) -> None:
        """Write what happened to the log, as every interface tells it; announce a second Kismet."""
        for each in told:
            self._log(each.text)
            if announce and isinstance(each.event, SecondKismet):
                self.app.push_screen(NoticeScreen("Second Kismet!", each.text.replace(". ", ".\n")))

    def after_change(self, told: Sequence[Told]) -> None:
        if any(isinstance(each.event, (Scored, RollOff)) for each in told) or not self.session.game.dice:
            self.hold = frozenset()
            self.chosen = None
        self.redraw()
        self._tell(told)
        self.update_chances()
        problem = self.session.keeper.problem
        if problem is not None and not self._told_saving:
            self._told_saving = True
            self.notify(problem, severity="error", timeout=10)
        if self.session.game.is_over:
            self.post_message(self.GameOver(self.session))
        else:
            self.schedule_computer()

    # --- chances of winning -------------------------------------------------------------

    def update_chances(self) -> None:
        """Work out everyone's chance of winning off the screen's thread (milliseconds, tens early
        in a game), then show it; nothing where the futures are not on this machine."""
        if not self.win_chances.available:
            return
        game = self.session.game.copy()
        self.run_worker(lambda: self._work_out_chances(game), thread=True, group="chances")

    def _work_out_chances(self, game: Game) -> None:
        found = self.win_chances.of(game)
        if found is not None:
            self.app.call_from_thread(self._show_chances, game, found)

    def _show_chances(self, game: Game, found: tuple[float, ...]) -> None:
        if len(game.history) != len(self.session.game.history):
            return  # the game moved on meanwhile: its own chances are on their way
        line = self.query_one("#chances", Static)
        line.display = True
        show_text(line, win_words(game.names, found))
        if not self._model_told:
            self._model_told = True
            self._log(WIN_MODEL)

    # --- computer turns -----------------------------------------------------------------

    def schedule_computer(self) -> None:
        if self.session.is_computer_turn:
            self.set_timer(self.pace, self.computer_step) if self.pace else self.call_later(
                self.computer_step
            )

    def computer_step(self) -> None:
        if not self.session.is_computer_turn or self.app.screen is not self:
            # A notice is open: play resumes when it closes.
            return
        self.after_change(self.session.computer_step())

    def on_screen_resume(self) -> None:
        if self.is_mounted:
            self.redraw()
            self.schedule_computer()

    # --- a person's actions -------------------------------------------------------------

    def _person_may_act(self) -> bool:
        if self.session.game.is_over or self.session.is_computer_turn:
            self.app.bell()
            return False
        return True

    def _refuse(self, error: Exception) -> None:
        text = str(error)
        self.notify(text[:1].upper() + text[1:], severity="warning", timeout=3)

    def _seat(self) -> int:
        seat = self.session.game.current_player
        assert seat is not None
        return seat

    def action_hold(self, position: int) -> None:
        if not self._person_may_act():
            return
        game = self.session.game
        if not game.dice:
            self._refuse(IllegalAction("roll first: nothing can be held before the turn's first roll"))
        elif not game.rolls_left:
            self._refuse(IllegalAction("no rolls are left: choose a box"))
        else:
            self.hold = self.hold ^ {position}
        self.redraw()

    def on_die_view_clicked(self, message: DieView.Clicked) -> None:
        self.action_hold(message.position)

    def action_roll(self) -> None:
        if not self._person_may_act():
            return
        try:
            told = self.session.roll(self._seat(), sorted(self.hold))
        except (IllegalAction, Unsaved) as error:
            self._refuse(error)
            return
        # A box chosen for the dice before the roll is not a choice for the new ones (as on the web).
        self.chosen = None
        self.after_change(told)

    def action_box(self, box_name: str) -> None:
        """A box's letter: the first press chooses the box, the same letter again enters it."""
        box = Box[box_name]
        if self.enter_at_once or self.chosen is box:
            self.action_score(box.name)
        else:
            self.choose(box)

    def choose(self, box: Box, *, quietly: bool = False) -> None:
        """Mark ``box`` as chosen and show what it would score; nothing is entered yet.

        ``quietly`` (moving with ↑↓ or a click) passes over what cannot be chosen without a word.
        """
        self._cursor_box = box
        self.query_one(SheetView).point_at(box)
        game = self.session.game
        if game.is_over or self.session.is_computer_turn or not game.dice or box not in game.options():
            self.chosen = None
            if not quietly:
                if not self._person_may_act():
                    return
                if not game.dice:
                    self._refuse(IllegalAction("roll the dice before choosing a box"))
                else:
                    self._refuse(IllegalAction(f"{box.label} is already filled"))
            self.redraw()
            return
        self.chosen = box
        self.redraw()

    def action_drop_choice(self) -> None:
        if self.chosen is not None:
            self.chosen = None
            self.redraw()

    def action_enter_choice(self) -> None:
        """Enter: enters the chosen box, or chooses the highlighted one when none is chosen."""
        box = self.query_one(SheetView).box_at_cursor()
        if self.chosen is not None and (self.chosen is box or box is None):
            self._enter_checked(self.chosen, confirm_zero=False)
        elif box is not None:
            self.action_box(box.name)

    def action_score(self, box_name: str) -> None:
        """Enter a box at once (advice, or the setting "enter at once"): a zero is confirmed."""
        box = Box[box_name]
        self.query_one(SheetView).point_at(box)
        self._enter_checked(box, confirm_zero=True)

    def _enter_checked(self, box: Box, *, confirm_zero: bool) -> None:
        if not self._person_may_act():
            return
        game = self.session.game
        if not game.dice:
            self._refuse(IllegalAction("roll the dice before choosing a box"))
            return
        options = game.options()
        if box not in options:
            self._refuse(IllegalAction(f"{box.label} is already filled"))
            return
        if options[box] == 0 and confirm_zero:
            question = narration.zero_question(box.label)
            self.app.push_screen(ConfirmScreen(question), lambda yes: self._enter(box) if yes else None)
            return
        self._enter(box)

    def _enter(self, box: Box) -> None:
        try:
            told = self.session.act(self._seat(), Score(box))
        except (IllegalAction, Unsaved) as error:
            self._refuse(error)
            return
        self.chosen = None
        self.after_change(told)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        # ↑↓ or a first click moves the highlight: that chooses the box (step one).
        event.stop()
        box = self.query_one(SheetView).box_at_cursor()
        if box is self._cursor_box:
            return  # the same row again, as after the sheets were redrawn
        self._cursor_box = box
        if box is None or self.enter_at_once:
            return
        if box is not self.chosen:
            self.choose(box, quietly=True)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        # Enter on the sheet, or a second click on the same row.
        event.stop()
        box = self.query_one(SheetView).box_at_cursor()
        if box is None:
            return
        if self.enter_at_once:
            self.action_score(box.name)
        else:
            self.action_enter_choice()

    def action_next_sheets(self) -> None:
        players = len(self.session.game.names)
        if players <= self.fitting():
            self.notify("Every sheet is shown.", timeout=3)
            return
        self.page += 1
        self.redraw()

    def action_advice(self) -> None:
        if not self._person_may_act():
            return
        if not self.session.game.dice:
            self._refuse(
                IllegalAction("roll first: before the first roll, rolling all five is the only move")
            )
            return
        if self.computer is None:
            self.notify("The computer is not available.", severity="error")
            return
        if self.session.assisted:
            self._advise()
            return
        self.app.push_screen(ConfirmScreen(narration.ASK_ADVICE), lambda yes: self._advise() if yes else None)

    def _advise(self) -> None:
        computer = self.computer
        assert computer is not None
        if computer.ready:
            self._show_advice()
            return
        reason = "Advice comes from the best move of every position."
        self.app.push_screen(
            PreparingScreen(computer, reason), lambda ready: self._show_advice() if ready else None
        )

    def _show_advice(self) -> None:
        computer = self.computer
        assert computer is not None
        advisor = computer.advisor()
        try:
            options = self.session.advise(self._seat(), advisor)
            hall = self.session.hall_advice(self._seat(), options, self.hall_chances)
        except (IllegalAction, Unsaved) as error:
            self._refuse(error)
            return
        self.redraw()
        win = None
        if self.win_chances.available and len(self.session.game.names) > 1:
            game = self.session.game.copy()
            win = lambda: self.win_chances.advice(game, options)  # noqa: E731 - the screen's worker calls it
        screen = AdviceScreen(
            options, self.session.game.dice, hall=hall, chances=self.hall_chances, advisor=advisor, win=win
        )
        self.app.push_screen(screen, self._follow_advice)

    def _follow_advice(self, option: Option | None) -> None:
        if option is None:
            return
        if option.box is not None:
            self.action_score(option.box.name)
            return
        self.hold = frozenset(hold_for(self.session.game.dice, option.keep or ()))
        self.action_roll()

    def action_rules(self) -> None:
        self.app.push_screen("rules")

    def action_help(self) -> None:
        self.app.push_screen("help")

    def leave_question(self) -> str:
        """The question asked before leaving, saying what leaving keeps and what it loses."""
        session = self.session
        if session.kept:
            # Every roll and entry is saved as it happens, this turn's dice and rolls left too;
            # only the dice marked to hold are the screen's own until the next roll.
            kept = "Leave the table? The game is saved as it is now"
            if session.game.dice:
                kept += ", with this turn's dice and rolls left"
            if self.hold:
                kept += " (not the dice marked to hold)"
            return f"{kept}: the start screen offers it for resuming."
        if session.keeper.problem is not None:
            return "Leave the table? Saving failed during the game: what was played after that is lost."
        return "Leave the table? Nothing has been rolled yet, so there is nothing to resume."

    def action_quit_game(self) -> None:
        def answer(yes: bool | None) -> None:
            if yes:
                self.post_message(self.Leave())

        self.app.push_screen(ConfirmScreen(self.leave_question()), answer)
