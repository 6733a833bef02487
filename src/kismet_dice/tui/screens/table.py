"""The table: the dice, every sheet, and the keys to play a game."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, RichLog

from kismet_dice.game import Rolled, RollOff, Scored, SecondKismet
from kismet_dice.rules import Box, IllegalAction, describe
from kismet_dice.session import COMPUTER_PACE, Session
from kismet_dice.strategy import Option, hold_for
from kismet_dice.tui.screens.dialogs import ConfirmScreen, NoticeScreen, RollOffScreen, RulesScreen
from kismet_dice.tui.screens.strategy import AdviceScreen
from kismet_dice.tui.widgets import BOX_OF_KEY, DiceTray, DieView, SheetView, Status

if TYPE_CHECKING:
    from kismet_dice.tui.app import KismetApp


def _hold_bindings() -> list[Binding]:
    # One footer entry for the five hold keys.
    return [Binding(str(n), f"hold({n - 1})", "Hold", key_display="1-5", show=n == 1) for n in range(1, 6)]


def _box_bindings() -> list[Binding]:
    return [Binding(key, f"score('{box.name}')", box.label, show=False) for key, box in BOX_OF_KEY.items()]


class TableScreen(Screen[None]):
    """A game in progress. Everything shown is drawn from the session after every change."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *_hold_bindings(),
        Binding("space,r", "roll", "Roll", key_display="space"),
        Binding("enter", "score_highlighted", "Score", key_display="enter", show=True),
        *_box_bindings(),
        Binding("h", "advice", "Advice"),
        Binding("question_mark", "rules", "Rules", key_display="?"),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, session: Session, *, pace: float = COMPUTER_PACE) -> None:
        super().__init__()
        self.session = session
        self.pace = pace
        self._seen = 0  # how many history events the log has told
        self._told_saving = False

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Vertical(id="left"):
            yield DiceTray(id="tray")
            yield Status(id="status")
            yield RichLog(id="log", wrap=True, markup=False, min_width=1)
        yield SheetView()
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Kismet"
        self.query_one(SheetView).focus()
        self.redraw()
        game = self.session.game
        fresh = not any(isinstance(event, (Rolled, Scored)) for event in game.history)
        self._tell_new_events()
        if fresh and len(game.names) > 1:
            rounds = tuple(event.faces for event in game.history if isinstance(event, RollOff))
            self.app.push_screen(RollOffScreen(game.names, rounds, game.first_player))
        self.schedule_computer()

    # --- drawing ------------------------------------------------------------------------

    def redraw(self) -> None:
        game = self.session.game
        self.query_one(DiceTray).show(game.dice, self.held())
        sheets = [game.sheet(seat) for seat in range(len(game.names))]
        options = game.options() if not self.session.is_computer_turn else {}
        self.query_one(SheetView).show(game.names, sheets, game.current_player, options)
        self.query_one(Status).update(self.status_text())

    def held(self) -> tuple[int, ...] | frozenset[int]:
        """The dice shown held: a person's choice, or what the computer kept at its last roll."""
        if not self.session.is_computer_turn:
            return self.session.hold
        last = self.session.game.history[-1] if self.session.game.dice else None
        return last.hold if isinstance(last, Rolled) else ()

    def status_text(self) -> str:
        game = self.session.game
        seat = self.session.current_seat
        if seat is None:
            return "The game is over."
        whose = f"{seat.describe()}'s turn" if len(game.names) > 1 else f"{seat.name}'s turn"
        if not game.dice:
            action = "press space to roll" if not seat.is_computer else "thinking…"
        elif seat.is_computer:
            action = "thinking…"
        elif game.rolls_left:
            rolls = f"{game.rolls_left} roll{'s' if game.rolls_left > 1 else ''} left"
            action = f"{rolls} · 1-5 hold · space rolls"
        else:
            action = "no rolls left: a-p or ↑↓ enter scores"
        assisted = " · assisted" if self.session.assisted else ""
        return f"Round {game.round} · {whose}{assisted}\n{action}"

    def _log(self, line: str) -> None:
        self.query_one(RichLog).write(line)

    def _tell_new_events(self) -> None:
        """Write what happened since last time to the log, and announce a second Kismet."""
        game = self.session.game
        history = game.history
        for event in history[self._seen :]:
            if isinstance(event, RollOff):
                rolls = ", ".join(f"{game.names[seat]} {face}" for seat, face in event.faces)
                if len(game.names) > 1:
                    self._log(f"Roll-off: {rolls}.")
            elif isinstance(event, Rolled):
                kept = f" (kept {len(event.hold)})" if event.hold else ""
                self._log(f"{game.names[event.seat]} rolls{kept}: {describe(event.dice)}")
            elif isinstance(event, Scored):
                self._log(f"{game.names[event.seat]}: {event.points} in {event.box.label}.")
            elif isinstance(event, SecondKismet):
                self._announce_second_kismet(event)
        if self._seen == 0 and len(game.names) > 1:
            self._log(f"{game.names[game.first_player]} begins.")
        self._seen = len(history)

    def _announce_second_kismet(self, event: SecondKismet) -> None:
        names = self.session.game.names
        lines = [f"{names[event.seat]} rolled a second Kismet!"]
        lines += [f"{names[p.seat]} loses a turn: 0 in {p.box.label}." for p in event.penalties]
        if len(names) > 1:
            lines.append(f"The rest of the round is skipped; {names[event.seat]} leads from now on.")
        for line in lines:
            self._log(line)
        self.app.push_screen(NoticeScreen("Second Kismet!", "\n".join(lines)))

    @property
    def kismet(self) -> KismetApp:
        from kismet_dice.tui.app import KismetApp

        assert isinstance(self.app, KismetApp)
        return self.app

    def after_change(self) -> None:
        self.redraw()
        self._tell_new_events()
        keeper = self.kismet.keeper
        if keeper is not None and keeper.problem is not None and not self._told_saving:
            self._told_saving = True
            self.notify(keeper.problem, severity="error", timeout=10)
        if self.session.game.is_over:
            self.app.call_later(self.kismet.game_over, self.session)
        else:
            self.schedule_computer()

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
        self.session.computer_step()
        self.after_change()

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

    def _refuse(self, error: IllegalAction) -> None:
        self.notify(str(error).capitalize(), severity="warning", timeout=3)

    def action_hold(self, position: int) -> None:
        if not self._person_may_act():
            return
        try:
            self.session.toggle_hold(position)
        except IllegalAction as error:
            self._refuse(error)
        self.redraw()

    def on_die_view_clicked(self, message: DieView.Clicked) -> None:
        self.action_hold(message.position)

    def action_roll(self) -> None:
        if not self._person_may_act():
            return
        try:
            self.session.roll()
        except IllegalAction as error:
            self._refuse(error)
            return
        self.after_change()

    def action_score(self, box_name: str) -> None:
        box = Box[box_name]
        self.query_one(SheetView).point_at(box)
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
        if options[box] == 0:
            question = f"{box.label} would score 0. Enter the zero?"
            self.app.push_screen(ConfirmScreen(question), lambda yes: self._enter(box) if yes else None)
            return
        self._enter(box)

    def _enter(self, box: Box) -> None:
        try:
            self.session.score(box)
        except IllegalAction as error:
            self._refuse(error)
            return
        self.after_change()

    def action_score_highlighted(self) -> None:
        box = self.query_one(SheetView).box_at_cursor()
        if box is not None:
            self.action_score(box.name)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_score_highlighted()

    def action_advice(self) -> None:
        if not self._person_may_act():
            return
        if not self.session.game.dice:
            self._refuse(
                IllegalAction("roll first: before the first roll, rolling all five is the only move")
            )
            return
        if self.session.assisted:
            self._advise()
            return
        question = "Advice marks this game as assisted: it can no longer enter the Hall of Fame. Ask anyway?"
        self.app.push_screen(ConfirmScreen(question), lambda yes: self._advise(mark=True) if yes else None)

    def _advise(self, mark: bool = False) -> None:
        if mark:
            self.session.mark_assisted()
            self.redraw()
        reason = "Advice comes from the best move of every position."
        self.kismet.when_computer_ready(reason, self._show_advice)

    def _show_advice(self) -> None:
        computer = self.kismet.computer
        assert computer is not None
        options = computer.advisor().game_options(self.session.game)
        self.app.push_screen(AdviceScreen(options), self._follow_advice)

    def _follow_advice(self, option: Option | None) -> None:
        if option is None:
            return
        if option.box is not None:
            self.action_score(option.box.name)
            return
        self.session.set_hold(hold_for(self.session.game.dice, option.keep or ()))
        self.action_roll()

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen())

    def action_quit_game(self) -> None:
        saved = self.kismet.keeper is not None and self.kismet.keeper.saved_id is not None
        question = "Leave the table? " + (
            "The game is saved: resume it when you start Kismet again."
            if saved
            else "Nothing has been rolled yet, so there is nothing to resume."
        )
        self.app.push_screen(ConfirmScreen(question), lambda yes: self.app.exit() if yes else None)
