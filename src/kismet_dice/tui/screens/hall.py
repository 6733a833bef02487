"""The Hall of Fame: the ten best game totals."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label

from kismet_dice.storage import HallEntry


class HallScreen(ModalScreen[None]):
    """The list, best first; the ranks just entered are highlighted."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,q,f2", "close", "Close")]

    def __init__(self, entries: tuple[HallEntry, ...], new_ranks: frozenset[int] = frozenset()) -> None:
        super().__init__(classes="dialog-screen")
        self.entries = entries
        self.new_ranks = new_ranks

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="hall-dialog"):
            yield Label("Hall of Fame", classes="dialog-title")
            if not self.entries:
                yield Label("No games yet: the first total to finish enters.")
                return
            table: DataTable[Text] = DataTable(cursor_type="none", id="hall-table")
            table.add_columns("#", "Name", "Total", "Date", "Players")
            for entry in self.entries:
                style = "bold reverse" if entry.rank in self.new_ranks else ""
                table.add_row(
                    *(
                        Text(cell, style=style)
                        for cell in (
                            str(entry.rank),
                            entry.name,
                            str(entry.total),
                            f"{entry.date.astimezone():%Y-%m-%d %H:%M}",
                            str(entry.players),
                        )
                    )
                )
            yield table

    def action_close(self) -> None:
        self.dismiss(None)
