"""The fifteen boxes of a Kismet score sheet, in sheet order."""

from __future__ import annotations

import enum

from kismet_dice.rules.errors import IllegalAction


class Section(enum.Enum):
    """The two parts of the sheet: the Basic section earns the bonus."""

    BASIC = "Basic"
    KISMET = "Kismet"


class Box(enum.Enum):
    """A box of the score sheet; the value is its number on the sheet, from the top.

    The order matters: a second Kismet zeroes the open box nearest the top.

    >>> Box.FULL_HOUSE.value, Box.FULL_HOUSE.label
    (11, 'Full House')
    >>> [box.name for box in Box][:3]
    ['ONES', 'TWOS', 'THREES']
    """

    ONES = 1
    TWOS = 2
    THREES = 3
    FOURS = 4
    FIVES = 5
    SIXES = 6
    TWO_PAIR_SAME_COLOR = 7
    THREE_OF_A_KIND = 8
    STRAIGHT = 9
    FLUSH = 10
    FULL_HOUSE = 11
    FULL_HOUSE_SAME_COLOR = 12
    FOUR_OF_A_KIND = 13
    YARBOROUGH = 14
    KISMET = 15

    # A member is one object, equal only to itself, so its identity hash serves: Enum's own hashes
    # the name in Python at every dict lookup, and boxes key the scores, the options and the sheets.
    __hash__ = object.__hash__

    @property
    def section(self) -> Section:
        return Section.BASIC if self.value <= 6 else Section.KISMET

    @property
    def face(self) -> int | None:
        """The face a Basic box counts (``Box.FOURS.face == 4``); ``None`` in the Kismet section."""
        return self.value if self.value <= 6 else None

    @property
    def label(self) -> str:
        """The box's name as printed on the sheet."""
        return _LABELS[self]

    @classmethod
    def parse(cls, text: str) -> Box:
        """A box from its name, label or sheet number, as a person might type it.

        >>> Box.parse("full house same color"), Box.parse("7"), Box.parse("KISMET")
        (<Box.FULL_HOUSE_SAME_COLOR: 12>, <Box.TWO_PAIR_SAME_COLOR: 7>, <Box.KISMET: 15>)
        """
        key = " ".join(text.replace("_", " ").replace("-", " ").split()).upper()
        if key.isdigit() and 1 <= int(key) <= len(cls):
            return cls(int(key))
        for box in cls:
            if key in (box.name.replace("_", " "), box.label.upper()):
                return box
        raise IllegalAction(f"no box is called {text!r}")


_LABELS = {
    Box.ONES: "Ones",
    Box.TWOS: "Twos",
    Box.THREES: "Threes",
    Box.FOURS: "Fours",
    Box.FIVES: "Fives",
    Box.SIXES: "Sixes",
    Box.TWO_PAIR_SAME_COLOR: "Two Pair Same Color",
    Box.THREE_OF_A_KIND: "Three of a Kind",
    Box.STRAIGHT: "Straight",
    Box.FLUSH: "Flush",
    Box.FULL_HOUSE: "Full House",
    Box.FULL_HOUSE_SAME_COLOR: "Full House Same Color",
    Box.FOUR_OF_A_KIND: "Four of a Kind",
    Box.YARBOROUGH: "Yarborough",
    Box.KISMET: "Kismet",
}

BASIC_BOXES = tuple(box for box in Box if box.section is Section.BASIC)
KISMET_BOXES = tuple(box for box in Box if box.section is Section.KISMET)
