"""The terminal game: a Textual app around a :class:`~kismet_dice.session.Session`."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from textual.app import App
from textual.screen import Screen
from textual.widget import AwaitMount

from kismet_dice.game import DiceSource, HouseRules
from kismet_dice.rules import IllegalAction
from kismet_dice.session import (
    HallChances,
    Preferences,
    Seat,
    Session,
    Setup,
    Unsaved,
    local_session,
    narration,
    resume,
    seat_levels,
)
from kismet_dice.session.statistics import statistics
from kismet_dice.storage import SavedGameError, Storage
from kismet_dice.strategy import Computer, ComputerPlayer, Goal, Level
from kismet_dice.tui.screens.dialogs import HelpScreen, NameScreen, RulesScreen
from kismet_dice.tui.screens.end import EndScreen
from kismet_dice.tui.screens.hall import HallScreen
from kismet_dice.tui.screens.settings import SettingsScreen
from kismet_dice.tui.screens.start import StartScreen
from kismet_dice.tui.screens.strategy import PreparingScreen
from kismet_dice.tui.screens.table import TableScreen

SETUP_KEY = "tui.setup"


class KismetApp(App[None]):
    """Kismet in the terminal.

    ``storage`` keeps games and the Hall of Fame; ``computer`` plays computer seats and gives
    advice; ``rng`` rolls the dice (tests script them); ``pace`` is the pause in seconds
    between a computer player's actions (``None``: the one in the settings).
    """

    CSS_PATH = "kismet.tcss"
    TITLE = "Kismet"
    # The footer's room is for the game's keys; every command has a key of its own.
    ENABLE_COMMAND_PALETTE = False
    # The rules and the help are made the first time they are opened and kept: rendering either
    # text takes over a second (Textual makes a widget of each paragraph and table cell), and a
    # kept screen opens again at once, where it was left.
    SCREENS: ClassVar[dict[str, Callable[[], Screen[Any]]]] = {"rules": RulesScreen, "help": HelpScreen}

    def __init__(
        self,
        storage: Storage,
        *,
        computer: Computer | None = None,
        rng: DiceSource | None = None,
        pace: float | None = None,
        seats: Sequence[Seat] = (),
        house_rules: HouseRules | None = None,
    ) -> None:
        """``seats`` (names given on the command line) start a new game at once; ``house_rules``
        are the new game's, in place of the last set-up's."""
        super().__init__()
        self.storage = storage
        self.computer = computer
        self.rng = rng
        self.chosen_pace = pace
        self.seats = tuple(seats)
        self.house_rules = house_rules
        self.preferences = Preferences.load(storage.settings)
        self.hall_chances = HallChances(computer)

    @property
    def pace(self) -> float:
        """The pace given when the app was made, else the one in the settings."""
        return self.preferences.pace if self.chosen_pace is None else self.chosen_pace

    def apply_theme(self) -> None:
        theme = self.preferences.theme
        if theme in self.available_themes:
            self.theme = theme
        elif theme in ("dark", "light"):
            self.theme = f"textual-{theme}"

    async def on_mount(self) -> None:
        self.apply_theme()
        if not self.is_headless:
            self.set_interval(1.0, self._leave_if_the_terminal_closed)
        if self.storage.moved_aside is not None:
            self.notify(self.storage.moved_aside.message, severity="warning", timeout=10)
        # The app takes no key before its mount is over: waiting here for the start screen to be
        # up, its first name focused, sends the keys typed while the program started (the
        # terminal hands them over all at once) to that name, not to the list of games to
        # resume or the screen, where d would discard a game and q quit.
        await self.switch_to(self.start_screen())
        if self.seats:
            # Leaving this game returns to the start screen, as after any game.
            self.begin(replace(self.remembered_setup(), seats=self.seats))

    def _leave_if_the_terminal_closed(self) -> None:
        """End the program once its terminal has gone. Started through another program (``make
        play``), it is not sent the hang-up when the terminal window closes, and Textual's input
        thread would spin on the end of its input for ever. Every roll and entry is already saved,
        so nothing is lost."""
        terminal = sys.__stdin__
        if terminal is None or not os.isatty(terminal.fileno()):
            self.exit()

    # --- set-up, resuming ---------------------------------------------------------------

    def remembered_setup(self) -> Setup:
        """The last set-up started (with the house rules asked for, if any); the first time, one
        person with the default name."""
        setup = self._remembered()
        return setup if self.house_rules is None else replace(setup, house_rules=self.house_rules)

    def _remembered(self) -> Setup:
        text = self.storage.settings.get(SETUP_KEY)
        if text is not None:
            try:
                setup = Setup.from_json(text)
            except IllegalAction:
                return Setup()
            if self.computer is not None or not any(seat.is_computer for seat in setup.seats):
                return setup
        return Setup((Seat(self.preferences.default_name),))

    def start_screen(self, resuming: bool = False) -> StartScreen:
        """The start screen; ``resuming`` keeps the focus on its list of games to resume."""
        listing = self.storage.games.unfinished()
        for broken in listing.unreadable:
            self.notify(f"Skipping {broken.reason}", severity="warning", timeout=10)
        return StartScreen(
            self.remembered_setup(),
            listing.games,
            computer_levels=self.computer is not None,
            resuming=resuming,
        )

    def action_new_game(self, resuming: bool = False) -> None:
        self.switch_to(self.start_screen(resuming))

    def switch_to(self, screen: StartScreen | TableScreen | EndScreen) -> AwaitMount:
        """Show ``screen`` as the base screen (dialogs are pushed over it); awaiting the answer
        waits for it to be mounted."""
        while len(self.screen_stack) > 1:
            self.pop_screen()
        return self.push_screen(screen)

    def when_computer_ready(
        self, reason: str, then: Callable[[], None], levels: Sequence[Level | None] = (Level.HARD,)
    ) -> None:
        """Run ``then`` once what the players of ``levels`` need is loaded, showing progress meanwhile."""
        if self.computer is None:
            self.notify("The computer is not available.", severity="error")
        elif self.computer.ready_for(levels):
            then()
        else:
            wanted = [level for level in levels if level is not None]
            self.push_screen(
                PreparingScreen(self.computer, reason, wanted), lambda ready: then() if ready else None
            )

    def _needs_table(self, levels: Sequence[Level | None]) -> bool:
        return self.computer is not None and any(level is not None and level.needs_table for level in levels)

    @staticmethod
    def _why_prepare(levels: Sequence[Level | None]) -> str:
        if Level.TARGET in levels:
            return "A target computer player plays for the Hall of Fame: the best chance to enter it."
        if Level.WIN in levels:
            return "A win computer player plays for the best chance of winning against this table."
        return "A hard computer player plays the best move of every position."

    def on_start_screen_start(self, message: StartScreen.Start) -> None:
        self.begin(message.setup)

    def begin(self, setup: Setup) -> None:
        """Start a new game of ``setup`` (remembered for the next), once its computers are ready."""
        self.storage.settings.put(SETUP_KEY, setup.to_json())
        levels = [seat.level for seat in setup.seats]
        if self._needs_table(levels):
            self.when_computer_ready(self._why_prepare(levels), lambda: self.start(setup), levels)
        else:
            self.start(setup)

    def start(self, setup: Setup) -> None:
        try:
            session = local_session(self.storage, setup, computer=self._computer_player, rng=self.rng)
        except IllegalAction as error:
            self.notify(str(error), severity="error")
            return
        self.play(session)

    def on_start_screen_resume(self, message: StartScreen.Resume) -> None:
        saved_id = message.saved.id
        levels = seat_levels(message.saved)
        if self._needs_table(levels):
            self.when_computer_ready(self._why_prepare(levels), lambda: self.resume(saved_id), levels)
        else:
            self.resume(saved_id)

    def on_start_screen_discard_game(self, message: StartScreen.DiscardGame) -> None:
        if self.storage.games.discard(message.saved.id):
            self.notify(f"Discarded: {message.saved.describe()}.", timeout=5)
        self.action_new_game(resuming=True)

    def resume(self, saved_id: int) -> None:
        try:
            session = resume(self.storage, saved_id, computer=self._computer_player, rng=self.rng)
        except (SavedGameError, IllegalAction) as error:
            self.notify(f"{error}.", severity="error", timeout=10)
            return
        self.play(session)

    def _computer_player(self, level: Level, goal: Goal) -> ComputerPlayer:
        if self.computer is None:
            raise IllegalAction("no computer players are available")
        return self.computer.player(level, goal)

    def play(self, session: Session) -> None:
        self.switch_to(
            TableScreen(
                session,
                computer=self.computer,
                pace=self.pace,
                enter_at_once=self.preferences.enter_at_once,
                hall_chances=self.hall_chances,
            )
        )

    def on_table_screen_leave(self) -> None:
        # Back to the start screen, where the game just left is offered for resuming.
        self.action_new_game()

    # --- the end of a game --------------------------------------------------------------

    def on_table_screen_game_over(self, message: TableScreen.GameOver) -> None:
        session = message.session
        # An assisted game's end screen says why no one is asked for the Hall of Fame.
        self.switch_to(EndScreen(session, self.computer))
        self._ask_hall_names(session, set())

    def _ask_hall_names(self, session: Session, entered: set[int]) -> None:
        """One name prompt per qualifying person, best total first, each checked again after the
        entry before; then the Hall of Fame."""
        prompts = session.hall_prompts()
        if not prompts:
            if entered:
                self.push_screen(HallScreen(self.storage.hall.entries(), frozenset(entered)))
            return
        seat = prompts[0]
        name = session.game.names[seat]
        total = session.game.total(seat)

        def enter(chosen: str | None) -> None:
            try:
                outcome = session.answer_hall(seat, chosen)
            except (IllegalAction, Unsaved) as error:
                self.notify(str(error), severity="error")
                return
            if outcome.entry is not None:
                entered.add(outcome.entry.rank)
            for line in outcome.told:
                self.notify(line, timeout=10)
            self._ask_hall_names(session, entered)

        self.push_screen(NameScreen(narration.hall_question(name, total), name), enter)

    # --- from any screen ----------------------------------------------------------------

    def action_show_hall(self) -> None:
        self.push_screen(HallScreen(self.storage.hall.entries()))

    def action_show_stats(self) -> None:
        from kismet_dice.tui.screens.stats import StatsScreen, stats_reference

        found = statistics(self.storage.finished.all())
        self.push_screen(StatsScreen(found, lambda progress: stats_reference(self.computer, progress)))

    def action_settings(self) -> None:
        def save(preferences: Preferences | None) -> None:
            if preferences is None:
                return
            preferences.save(self.storage.settings)
            if isinstance(self.screen, StartScreen):
                self.screen.rename_default(self.preferences.default_name, preferences.default_name)
            self.preferences = preferences
            self.apply_theme()
            self.notify("Settings saved.", timeout=3)

        self.push_screen(SettingsScreen(self.preferences, self.available_themes), save)
