"""Small modal screens: a yes/no question, a notice, a name prompt, the rules and the help."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Markdown, Static

from kismet_dice import texts
from kismet_dice.game import check_name
from kismet_dice.rules import IllegalAction
from kismet_dice.tui.widgets import die_face


class ConfirmScreen(ModalScreen[bool]):
    """A question answered yes (``y``) or no (``n`` or escape)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__(classes="dialog-screen")
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, id="question")
            with Horizontal(classes="buttons"):
                yield Button("Yes (y)", id="yes", variant="primary")
                yield Button("No (n)", id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class NoticeScreen(ModalScreen[None]):
    """Something to read before play goes on; any of enter, space or escape closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space,escape", "close", "OK")]

    def __init__(self, title: str, text: str) -> None:
        super().__init__(classes="dialog-screen")
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(self.text, id="notice")
            yield Button("OK (enter)", id="ok", variant="primary")

    def on_button_pressed(self) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class NameScreen(ModalScreen[str | None]):
    """Ask a name (for the Hall of Fame); escape declines."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "decline", "Skip")]

    def __init__(self, question: str, suggestion: str) -> None:
        super().__init__(classes="dialog-screen")
        self.question = question
        self.suggestion = suggestion

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, id="question")
            yield Input(self.suggestion, id="name", max_length=24)
            yield Label("", id="problem", classes="problem")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            name = check_name(event.value)
        except IllegalAction as error:
            self.query_one("#problem", Label).update(f"{error}.")
            return
        self.dismiss(name)

    def action_decline(self) -> None:
        self.dismiss(None)


class MarkdownScreen(ModalScreen[None]):
    """A text for players, rendered from Markdown and scrollable; escape or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close")]

    def __init__(self, markdown: str) -> None:
        super().__init__()
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules-text"):
            yield Markdown(self.markdown)

    def on_mount(self) -> None:
        # Focused, so ↑↓ and the page keys scroll the text at once.
        self.query_one("#rules-text").focus()

    def action_close(self) -> None:
        self.dismiss(None)


class RulesScreen(MarkdownScreen):
    """The rules of Kismet, written for players; F1 closes them too."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,f1", "close", "Close")]

    def __init__(self) -> None:
        super().__init__(texts.rules_markdown())


class HelpScreen(MarkdownScreen):
    """The guide to the program: keys, two-step entry, advice, settings; ? closes it too."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close"),
        Binding("f1", "rules", "Rules"),
    ]

    def __init__(self) -> None:
        super().__init__(texts.help_markdown())

    def action_rules(self) -> None:
        self.dismiss(None)
        self.app.push_screen("rules")


class RollOffScreen(ModalScreen[None]):
    """The roll-off for the first player: every round of it, with its dice."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space,escape", "close", "Play")]

    def __init__(self, names: tuple[str, ...], rounds: tuple[tuple[tuple[int, int], ...], ...], first: int):
        super().__init__(classes="dialog-screen")
        self.names = names
        self.rounds = rounds
        self.first = first

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Who begins? Everyone rolls one die.", classes="dialog-title")
            for number, faces in enumerate(self.rounds):
                if number:
                    tied = " and ".join(self.names[seat] for seat, _ in faces)
                    yield Label(f"{tied} tie, and roll again:")
                with Horizontal(classes="roll-off"):
                    for seat, face in faces:
                        with Vertical(classes="roll-off-seat"):
                            yield Static(die_face(face, seat, False, label=False), classes="die")
                            yield Label(self.names[seat][:10])
            yield Label(f"{self.names[self.first]} begins. Play moves to the left.", classes="dialog-title")
            yield Button("Play (enter)", id="ok", variant="primary")

    def on_button_pressed(self) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
