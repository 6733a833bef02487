"""The rules of Kismet: dice, colours, boxes, scoring and the bonus. Pure values and functions.

This package imports nothing else of the project's and does no I/O; everything else
depends on it.
"""

from kismet_dice.rules.boxes import BASIC_BOXES, KISMET_BOXES, Box, Section
from kismet_dice.rules.dice import (
    FACES,
    NUMBER_OF_DICE,
    Colour,
    Dice,
    all_rolls,
    check_dice,
    check_face,
    colour_of,
    counts,
    describe,
)
from kismet_dice.rules.errors import IllegalAction
from kismet_dice.rules.scoring import BONUS_TIERS, bonus, is_kismet, qualifies, score, scores
from kismet_dice.rules.sheet import Sheet

__all__ = [
    "BASIC_BOXES",
    "BONUS_TIERS",
    "FACES",
    "KISMET_BOXES",
    "NUMBER_OF_DICE",
    "Box",
    "Colour",
    "Dice",
    "IllegalAction",
    "Section",
    "Sheet",
    "all_rolls",
    "bonus",
    "check_dice",
    "check_face",
    "colour_of",
    "counts",
    "describe",
    "is_kismet",
    "qualifies",
    "score",
    "scores",
]
