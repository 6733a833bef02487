"""kismet-dice: the dice game Kismet (Lakeside, 1964) with exact rules.

>>> from kismet_dice import Box, score
>>> score(Box.FOUR_OF_A_KIND, [4, 5, 5, 5, 5])
49
"""

from kismet_dice.game import (
    Game,
    HouseRules,
    RecordError,
    Roll,
    Score,
    ScriptedDice,
)
from kismet_dice.rules import Box, Colour, IllegalAction, Sheet, bonus, colour_of, score, scores

__all__ = [
    "Box",
    "Colour",
    "Game",
    "HouseRules",
    "IllegalAction",
    "RecordError",
    "Roll",
    "Score",
    "ScriptedDice",
    "Sheet",
    "bonus",
    "colour_of",
    "score",
    "scores",
]
