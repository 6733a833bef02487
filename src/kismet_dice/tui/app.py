"""The terminal game: a Textual app around a :class:`~kismet_dice.session.Session`."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import App

from kismet_dice.game import DiceSource
from kismet_dice.rules import IllegalAction
from kismet_dice.session import ComputerPlayer, Session, Setup
from kismet_dice.tui.screens.end import EndScreen
from kismet_dice.tui.screens.start import StartScreen
from kismet_dice.tui.screens.table import TableScreen


class KismetApp(App[None]):
    """Kismet in the terminal.

    ``rng`` rolls the dice (tests script them); ``pace`` is the pause in seconds between a
    computer player's actions (0 in tests).
    """

    CSS_PATH = "kismet.tcss"
    TITLE = "Kismet"

    def __init__(
        self,
        *,
        computer: Callable[[str], ComputerPlayer] | None = None,
        rng: DiceSource | None = None,
        pace: float = 0.6,
        setup: Setup | None = None,
    ) -> None:
        super().__init__()
        self.computer = computer
        self.rng = rng
        self.pace = pace
        self.setup = setup or Setup()
        self.session: Session | None = None

    def on_mount(self) -> None:
        self.action_new_game()

    def action_new_game(self) -> None:
        self.switch_to(StartScreen(self.setup, computer_levels=self.computer is not None))

    def switch_to(self, screen: StartScreen | TableScreen | EndScreen) -> None:
        # The base screen is swapped; dialogs are pushed over it.
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(screen)

    def on_start_screen_start(self, message: StartScreen.Start) -> None:
        self.setup = message.setup
        try:
            session = Session.new(message.setup, computer=self._computer_player, rng=self.rng)
        except IllegalAction as error:
            self.notify(str(error), severity="error")
            return
        self.play(session)

    def _computer_player(self, level: str) -> ComputerPlayer:
        if self.computer is None:
            raise IllegalAction("no computer players are available")
        return self.computer(level)

    def play(self, session: Session) -> None:
        self.session = session
        self.switch_to(TableScreen(session, pace=self.pace))

    def game_over(self, session: Session) -> None:
        self.switch_to(EndScreen(session, []))

    def show_advice(self, session: Session) -> None:
        self.notify("Advice is not available.", severity="warning")

    def action_show_hall(self) -> None:
        self.notify("The Hall of Fame is not available.", severity="warning")
