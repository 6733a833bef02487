"""The game engine: players, turns, rounds, the second Kismet, history and JSON records.

Imports only :mod:`kismet_dice.rules`.
"""

from kismet_dice.game.dice_source import DiceSource, ScriptedDice, ScriptExhausted, SystemDice
from kismet_dice.game.engine import MAX_NAME_LENGTH, ROLLS_PER_TURN, Game, check_name
from kismet_dice.game.events import (
    Action,
    Event,
    HouseRules,
    Penalty,
    Recorded,
    Resigned,
    Roll,
    Rolled,
    RollOff,
    Score,
    Scored,
    SecondKismet,
)
from kismet_dice.game.record import Record, RecordError

__all__ = [
    "MAX_NAME_LENGTH",
    "ROLLS_PER_TURN",
    "Action",
    "DiceSource",
    "Event",
    "Game",
    "HouseRules",
    "Penalty",
    "Record",
    "RecordError",
    "Recorded",
    "Resigned",
    "Roll",
    "RollOff",
    "Rolled",
    "Score",
    "Scored",
    "ScriptExhausted",
    "ScriptedDice",
    "SecondKismet",
    "SystemDice",
    "check_name",
]
