"""The settings: the first seat's name, the computer's pace, the theme and one-step entry."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select

from kismet_dice.rules import IllegalAction
from kismet_dice.session import Preferences


class SettingsScreen(ModalScreen[Preferences | None]):
    """Edit the preferences; enter (or Save) returns them checked, escape leaves them as they were."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("enter", "save", "Save", priority=True),
    ]

    def __init__(self, preferences: Preferences, themes: Iterable[str]) -> None:
        super().__init__(classes="dialog-screen")
        self.preferences = preferences
        self.themes = sorted(set(themes) | {preferences.theme})

    def compose(self) -> ComposeResult:
        # Each label beside its field, and the problem line shown only when there is one: the
        # whole dialog, buttons included, fits a terminal of 24 lines.
        with Vertical(classes="dialog", id="settings-dialog"):
            yield Label("Settings", classes="dialog-title")
            with Horizontal(classes="setting-row"):
                yield Label("First player's name", classes="setting-label")
                yield Input(self.preferences.default_name, id="default-name", max_length=24)
            with Horizontal(classes="setting-row"):
                yield Label("Computer pace (0-10 s)", classes="setting-label")
                yield Input(f"{self.preferences.pace:g}", id="pace", type="number")
            with Horizontal(classes="setting-row"):
                yield Label("Theme", classes="setting-label")
                yield Select(
                    [(theme, theme) for theme in self.themes],
                    value=self.preferences.theme,
                    allow_blank=False,
                    id="theme",
                )
            yield Checkbox(
                "Enter at once: one key enters a box (zeros ask twice)",
                self.preferences.enter_at_once,
                id="enter-at-once",
            )
            yield Label("", id="problem", classes="problem")
            with Horizontal(classes="buttons"):
                yield Button("Save (enter)", id="save", variant="primary")
                yield Button("Cancel (esc)", id="cancel")
        # As on every screen, the keys at the bottom (the dialog keeps the line above it).
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#default-name", Input).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Enter on a closed drop-down opens it, in an open one picks, on a button presses it (as
        # on the start screen); it saves elsewhere.
        if action != "save":
            return True
        return not (self.query_one("#theme", Select).expanded or isinstance(self.focused, (Button, Select)))

    def read(self) -> Preferences:
        """The preferences as the fields show them, checked (:class:`IllegalAction` if wrong)."""
        pace_text = self.query_one("#pace", Input).value.strip()
        try:
            pace = float(pace_text)
        except ValueError:
            raise IllegalAction("the pace is a number of seconds from 0 to 10") from None
        return Preferences(
            default_name=self.query_one("#default-name", Input).value,
            pace=pace,
            theme=str(self.query_one("#theme", Select).value),
            enter_at_once=self.query_one("#enter-at-once", Checkbox).value,
        ).checked()

    def action_save(self) -> None:
        try:
            preferences = self.read()
        except IllegalAction as error:
            text = str(error)
            problem = self.query_one("#problem", Label)
            problem.update(f"{text[:1].upper()}{text[1:]}.")
            problem.display = True
            return
        self.dismiss(preferences)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.action_cancel()
