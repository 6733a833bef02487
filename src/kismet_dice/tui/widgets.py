"""Widgets of the table: dice drawn with coloured pips, and the score sheets side by side.

Widgets hold no game state: each is redrawn from the values it is given.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.coordinate import Coordinate
from textual.message import Message
from textual.widgets import DataTable, RichLog, Static

from kismet_dice.rules import Box, Colour, Sheet, bonus, colour_of

# Pip layouts on a 3x5 grid: (row, column) of each pip.
_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 2),),
    2: ((0, 0), (2, 4)),
    3: ((0, 0), (1, 2), (2, 4)),
    4: ((0, 0), (0, 4), (2, 0), (2, 4)),
    5: ((0, 0), (0, 4), (1, 2), (2, 0), (2, 4)),
    6: ((0, 0), (0, 4), (1, 0), (1, 4), (2, 0), (2, 4)),
}

# Dark pips on a light face read on any terminal background.
PIP_COLOURS = {Colour.BLACK: "#111111", Colour.RED: "#c62828", Colour.GREEN: "#1b7a2e"}
FACE_COLOUR = "#f4efe1"


def die_face(face: int | None, position: int, held: bool, *, label: bool = True) -> Text:
    """The pips of ``face`` in their colour on a light face (blank before a roll), then a label.

    The label gives the die's position (its key) and its colour letter, bracketed when held,
    so neither the colour nor the hold depends on seeing colour.
    """
    grid = [[" "] * 5 for _ in range(3)]
    for row, column in _PIPS.get(face or 0, ()):
        grid[row][column] = "●"
    pips = f"bold {PIP_COLOURS[colour_of(face)]} on {FACE_COLOUR}" if face else f"on {FACE_COLOUR}"
    letter = colour_of(face).letter if face else " "
    tag = f"[{position + 1} {letter}]" if held else f" {position + 1} {letter} "
    text = Text("\n".join("".join(row) for row in grid), style=pips)
    if not label:
        return text
    text.append("\n")
    text.append(tag, style="bold reverse" if held else "bold")
    return text


class DieView(Static):
    """One die, clickable to hold or free it."""

    class Clicked(Message):
        def __init__(self, position: int) -> None:
            super().__init__()
            self.position = position

    def __init__(self, position: int) -> None:
        super().__init__(die_face(None, position, False), id=f"die-{position + 1}", classes="die")
        self.position = position

    def show(self, face: int | None, held: bool) -> None:
        show_text(self, die_face(face, self.position, held))
        self.set_class(held, "held")

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.position))


class DiceTray(Horizontal):
    """The five dice in a row."""

    def compose(self) -> ComposeResult:
        for position in range(5):
            yield DieView(position)

    def show(self, dice: Sequence[int], held: Collection[int]) -> None:
        for view in self.query(DieView):
            face = dice[view.position] if dice else None
            view.show(face, view.position in held)


BOX_KEYS = "abcdefgijklmnop"
"""One letter per box, in sheet order; h, q and r are left to advice, quit and roll."""

KEY_OF_BOX = dict(zip(Box, BOX_KEYS, strict=True))
BOX_OF_KEY = {key: box for box, key in KEY_OF_BOX.items()}

_SUMMARY_ROWS = ("basic", "bonus", "next", "kismet", "total")


def bonus_cell(sheet: Sheet) -> str:
    """The bonus: earned once the Basic section is full, else the tier its total has reached.

    >>> from kismet_dice.rules import Box
    >>> bonus_cell(Sheet().with_entry(Box.SIXES, 30).with_entry(Box.FIVES, 25).with_entry(Box.FOURS, 16))
    '(55)'
    """
    if sheet.basic_complete:
        return str(sheet.bonus)
    reached = bonus(sheet.basic_total)
    return f"({reached})" if reached else "·"


def next_tier_cell(sheet: Sheet) -> str:
    """Basic points still needed for the next bonus, and that bonus, while the section is open.

    The row's label says what the arrow means; the status line says it in a sentence.

    >>> next_tier_cell(Sheet())
    '63→35'
    """
    needed = sheet.points_to_next_bonus
    if sheet.basic_complete or needed is None:
        return "—"
    return f"{needed}→{bonus(sheet.basic_total + needed)}"


DICE_COLUMNS = 40
"""The columns the dice (and the log under them) keep at least, beside the sheets (the tray's
width and the left side's least width in kismet.tcss)."""
LABEL_WIDTH = 23
"""The widest box label with its letter ("m Full House Same Color")."""
COLUMN_WIDTH = 8
"""A player's column: a name of up to eight letters."""
CELL_PADDING = 1
SCROLL_BAR = 2
"""The columns of the sheets' vertical scroll bar."""


def sheet_width(players: int) -> int:
    """The columns the sheets of ``players`` need side by side, the scroll bar included.

    >>> sheet_width(1)
    37
    """
    return LABEL_WIDTH + 2 * CELL_PADDING + players * (COLUMN_WIDTH + 2 * CELL_PADDING) + SCROLL_BAR


TABLE_COLUMNS = DICE_COLUMNS + sheet_width(1) - SCROLL_BAR - CELL_PADDING
"""The fewest columns that show the dice and one sheet's scores whole, 74: the sheet's scroll bar
and its last padding may fall off the screen (at 73 columns the scores lose their last character,
at 60 the players' columns do not show at all)."""


def sheets_that_fit(width: int) -> int:
    """How many players' columns fit in ``width`` columns (always at least one).

    >>> sheets_that_fit(40), sheets_that_fit(80)
    (1, 5)
    """
    return max(1, (width - sheet_width(0)) // (COLUMN_WIDTH + 2 * CELL_PADDING))


def sheets_hint(shown: int, players: int) -> str:
    """What the table and the end say above the sheets when only some of them fit: short enough
    to show whole above one sheet at the narrowest width (:data:`TABLE_COLUMNS`), where the
    sheet's last columns fall off the screen.

    >>> sheets_hint(1, 3)
    '1 of 3 sheets · s shows the rest'
    """
    return f"{shown} of {players} sheets · s shows the rest"


class SheetView(DataTable[Text]):
    """Some or all players' sheets side by side, one row per box, with subtotals and totals.

    The current player's open boxes show what the dice on the table would score there; the
    box chosen for entry is marked with an arrow as well as reversed, so it reads without colour.
    Only the seats in ``shown`` get a column, so a narrow terminal shows a few at a time.
    """

    def __init__(self) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, id="sheets")
        self._columns: tuple[tuple[int, str], ...] = ()
        self._drawn: list[list[Text]] = []  # the cells on screen, row by row
        self._open_rows: tuple[int, ...] = ()  # the rows of the boxes the dice could go in now
        self.enter_at_once = False

    def show(
        self,
        names: Sequence[str],
        sheets: Sequence[Sheet],
        current: int | None,
        options: dict[Box, int],
        *,
        chosen: Box | None = None,
        shown: Sequence[int] | None = None,
    ) -> None:
        seats = tuple(range(len(names)) if shown is None else shown)
        columns = tuple((seat, names[seat]) for seat in seats)
        picked = [sheets[seat] for seat in seats]
        rows = [self._row(box, seats, picked, current, options, chosen) for box in Box]
        rows += [self._summary(key, picked) for key in _SUMMARY_ROWS]
        self._open_rows = tuple(box.value - 1 for box in Box if box in options) if current in seats else ()
        if columns != self._columns:
            row = self.cursor_row
            self.clear(columns=True)
            self._columns = columns
            self.add_column(Text("Box"), key="box", width=LABEL_WIDTH)
            for seat, name in columns:
                self.add_column(
                    Text(name[:COLUMN_WIDTH], justify="right"), key=f"seat-{seat}", width=COLUMN_WIDTH
                )
            for key, cells in zip([box.name for box in Box] + list(_SUMMARY_ROWS), rows, strict=True):
                self.add_row(*cells, key=key)
            self._drawn = rows
            # The same box stays highlighted when the columns change.
            self.move_cursor(row=max(row, 0), animate=False)
            return
        # Only the cells that changed: any change draws the whole table again, which was most of
        # the time a key took (holding a die changes no cell at all).
        for number, (cells, drawn) in enumerate(zip(rows, self._drawn, strict=True)):
            for column, (cell, before) in enumerate(zip(cells, drawn, strict=True)):
                if _looks(cell) != _looks(before):
                    self.update_cell_at(Coordinate(number, column), cell)
        self._drawn = rows

    def _row(
        self,
        box: Box,
        seats: Sequence[int],
        sheets: Sequence[Sheet],
        current: int | None,
        options: dict[Box, int],
        chosen: Box | None,
    ) -> list[Text]:
        label = Text.assemble((KEY_OF_BOX[box], "bold"), " ", box.label)
        cells = [label]
        for seat, sheet in zip(seats, sheets, strict=True):
            entry = sheet[box]
            if entry is not None:
                cells.append(Text(str(entry), style="bold", justify="right"))
            elif seat == current and box in options:
                # What the dice would score: bracketed as well as coloured, so it reads without colour.
                if box is chosen:
                    cells.append(Text(f"→({options[box]})", style="bold reverse", justify="right"))
                    continue
                style = "italic #2e86c1" if options[box] else "italic #888888"
                cells.append(Text(f"({options[box]})", style=style, justify="right"))
            else:
                cells.append(Text("·", style="#888888", justify="right"))
        return cells

    def _summary(self, key: str, sheets: Sequence[Sheet]) -> list[Text]:
        label, values = {
            "basic": ("  Basic total", [str(sheet.basic_total) for sheet in sheets]),
            "bonus": ("  Bonus", [bonus_cell(sheet) for sheet in sheets]),
            "next": ("  Needed→next bonus", [next_tier_cell(sheet) for sheet in sheets]),
            "kismet": ("  Kismet section", [str(sheet.kismet_total) for sheet in sheets]),
            "total": ("  Game total", [str(sheet.total) for sheet in sheets]),
        }[key]
        style = "bold reverse" if key == "total" else "bold"
        return [Text(label, style="bold"), *(Text(value, style=style, justify="right") for value in values)]

    def box_at_cursor(self) -> Box | None:
        """The box of the highlighted row, or None on a total row."""
        row = self.cursor_row
        return list(Box)[row] if 0 <= row < len(Box) else None

    def point_at(self, box: Box) -> None:
        self.move_cursor(row=box.value - 1)

    # While dice are on the table, ↑ and ↓ go from one box they could go in to the next, over the
    # filled ones (with one box left at the far end, ↓ seemed to do nothing, row after filled row);
    # past the last open box, or with no dice to enter, they move row by row as DataTable does.
    def action_cursor_down(self) -> None:
        later = [row for row in self._open_rows if row > self.cursor_row]
        if later:
            self.move_cursor(row=later[0], animate=False)
        else:
            super().action_cursor_down()

    def action_cursor_up(self) -> None:
        earlier = [row for row in self._open_rows if row < self.cursor_row]
        if earlier:
            self.move_cursor(row=earlier[-1], animate=False)
        else:
            super().action_cursor_up()

    async def _on_click(self, event: events.Click) -> None:
        # A first click on a row highlights it (the choice) and a click on the highlighted row
        # enters it: DataTable's own handler, which runs after this one, does that, though only
        # for the same cell. Here the row counts: a second click anywhere on it enters, and with
        # "enter at once" the row is highlighted first, so that the first click enters it.
        meta = event.style.meta
        row = meta.get("row", -1)
        if row >= 0 and "column" in meta and (self.enter_at_once or row == self.cursor_row):
            self.cursor_coordinate = Coordinate(row, meta["column"])


def _looks(cell: Text | str) -> tuple[object, ...]:
    """What a text shows: Rich's own comparison of texts leaves out their style and justification."""
    if isinstance(cell, str):
        return (cell,)
    return (cell.plain, str(cell.style), cell.justify, tuple(cell.spans))


def show_text(widget: Static, content: Text | str) -> None:
    """Put ``content`` in ``widget`` if it shows something else: every update lays the whole
    screen out and draws it again, and a key changes only a few of a table's texts."""
    before = widget.content
    if not isinstance(before, (Text, str)) or _looks(before) != _looks(content):
        widget.update(content)


class Status(Static):
    """Whose turn it is, the round and the rolls left."""


__all__ = [
    "BOX_KEYS",
    "BOX_OF_KEY",
    "KEY_OF_BOX",
    "DiceTray",
    "DieView",
    "SheetView",
    "Status",
    "bonus_cell",
    "die_face",
    "next_tier_cell",
    "sheet_width",
    "sheets_that_fit",
    "show_text",
]


class StoryLog(RichLog):
    """The game's story, wrapped to the log's width and wrapped again when that changes.

    A rich log wraps each line once, as it is written: after the terminal is resized, its lines
    would keep the old width (cut off, or in a narrow column). The story's lines are kept and
    written again at the new width, the latest in view.
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, min_width=1, max_lines=MAX_STORY_LINES)
        self._story: list[str] = []
        self._width = 0

    @property
    def story(self) -> tuple[str, ...]:
        """The lines told, as they were told (before wrapping)."""
        return tuple(self._story)

    def tell(self, line: str) -> None:
        self._story.append(line)
        del self._story[:-MAX_STORY_LINES]
        self.write(line)

    def on_resize(self, event: events.Resize) -> None:
        width = event.size.width
        if self._width and width and width != self._width:
            self.clear()
            for line in self._story:
                self.write(line, scroll_end=False)
            self.call_after_refresh(self.scroll_end, animate=False)
        if width:
            self._width = width


MAX_STORY_LINES = 1000
"""The story lines a log keeps: a long game tells a few hundred."""
