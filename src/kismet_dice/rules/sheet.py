"""A player's score sheet: an immutable mapping from each box to its entry."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from kismet_dice.rules.boxes import BASIC_BOXES, KISMET_BOXES, Box
from kismet_dice.rules.errors import IllegalAction
from kismet_dice.rules.scoring import BONUS_TIERS, bonus

# Where each box's entry sits, worked out once: a sheet is read box by box at every action, and an
# enum member's ``value`` is a descriptor lookup each time.
_BOXES = tuple(Box)
_INDEX = {box: index for index, box in enumerate(_BOXES)}
_BASIC = tuple(_INDEX[box] for box in BASIC_BOXES)
_KISMET = tuple(_INDEX[box] for box in KISMET_BOXES)


@dataclass(frozen=True)
class Sheet(Mapping[Box, "int | None"]):
    """Fifteen boxes, each ``None`` while open or the points entered in it.

    A sheet never changes, so its totals are worked out once, when first asked for (every view
    of a game asks for them again).

    >>> sheet = Sheet().with_entry(Box.FIVES, 20).with_entry(Box.KISMET, 0)
    >>> sheet[Box.FIVES], sheet[Box.ONES], sheet.total
    (20, None, 20)
    >>> sheet.open_boxes[0], len(sheet.open_boxes)
    (<Box.ONES: 1>, 13)
    """

    entries: tuple[int | None, ...] = field(default=(None,) * len(Box))

    def __post_init__(self) -> None:
        if len(self.entries) != len(Box):
            raise IllegalAction(f"a sheet has {len(Box)} boxes, not {len(self.entries)}")
        for entry in self.entries:
            if entry is not None and (isinstance(entry, bool) or not isinstance(entry, int) or entry < 0):
                raise IllegalAction(f"a box holds a whole number of points, not {entry!r}")

    def __getitem__(self, box: Box) -> int | None:
        return self.entries[_INDEX[box]]  # KeyError for anything but a box

    def __iter__(self) -> Iterator[Box]:
        return iter(Box)

    def __len__(self) -> int:
        return len(Box)

    def with_entry(self, box: Box, points: int) -> Sheet:
        """A copy with ``points`` entered in ``box``, which must be open."""
        if self[box] is not None:
            raise IllegalAction(f"{box.label} is already filled")
        entries = list(self.entries)
        entries[_INDEX[box]] = points
        return Sheet(tuple(entries))

    def without_entry(self, box: Box) -> Sheet:
        """A copy with ``box`` open again: the sheet as it was before that entry.

        >>> Sheet().with_entry(Box.SIXES, 24).without_entry(Box.SIXES) == Sheet()
        True
        """
        entries = list(self.entries)
        entries[_INDEX[box]] = None
        return Sheet(tuple(entries))

    @cached_property
    def open_boxes(self) -> tuple[Box, ...]:
        """The open boxes, from the top of the sheet down."""
        return tuple(box for box, entry in zip(_BOXES, self.entries, strict=True) if entry is None)

    @property
    def is_full(self) -> bool:
        return None not in self.entries

    @cached_property
    def basic_total(self) -> int:
        entries = self.entries
        return sum(entries[index] or 0 for index in _BASIC)

    @cached_property
    def basic_complete(self) -> bool:
        entries = self.entries
        return all(entries[index] is not None for index in _BASIC)

    @cached_property
    def bonus(self) -> int:
        """The bonus, earned once all six Basic boxes are filled."""
        return bonus(self.basic_total) if self.basic_complete else 0

    @cached_property
    def points_to_next_bonus(self) -> int | None:
        """Basic points still needed for the next bonus tier; ``None`` above the top tier.

        >>> Sheet().with_entry(Box.SIXES, 24).points_to_next_bonus
        39
        """
        for lowest, _ in reversed(BONUS_TIERS):
            if self.basic_total < lowest:
                return lowest - self.basic_total
        return None

    @cached_property
    def kismet_total(self) -> int:
        entries = self.entries
        return sum(entries[index] or 0 for index in _KISMET)

    @cached_property
    def total(self) -> int:
        """Game total so far: Basic total, bonus (once earned) and Kismet-section total."""
        return self.basic_total + self.bonus + self.kismet_total
