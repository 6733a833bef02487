"""The table service: every interface (plain text, the terminal, the web) plays through it.

A :class:`Session` is one game at a table: its seats (people and computer players), the
assisted mark, the Hall of Fame prompts, and a keeper that saves every change under one of
two policies (local play carries on when a save fails; the server refuses the change).
:mod:`~kismet_dice.session.narration` tells every event in the same words everywhere, and
:mod:`~kismet_dice.session.tables` keeps the server's tables. The interfaces hold no rules
and no SQL of their own.
"""

from kismet_dice.session import narration
from kismet_dice.session.hall_chances import HallAdvice, HallChances
from kismet_dice.session.keeping import Keeper, Policy, Stale, StoreKeeper, Unkept, Unsaved
from kismet_dice.session.narration import Told
from kismet_dice.session.preferences import Preferences
from kismet_dice.session.seats import (
    COMPUTER_PACE,
    LIMITS,
    MAX_SEATS,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    BadSetup,
    Limits,
    Seat,
    Setup,
)
from kismet_dice.session.table import (
    BadName,
    HallOutcome,
    NotYourTurn,
    Players,
    Session,
    local_session,
    resume,
    seat_levels,
)

__all__ = [
    "COMPUTER_PACE",
    "LIMITS",
    "MAX_SEATS",
    "MAX_TURN_SECONDS",
    "MIN_TURN_SECONDS",
    "BadName",
    "BadSetup",
    "HallAdvice",
    "HallChances",
    "HallOutcome",
    "Keeper",
    "Limits",
    "NotYourTurn",
    "Players",
    "Policy",
    "Preferences",
    "Seat",
    "Session",
    "Setup",
    "Stale",
    "StoreKeeper",
    "Told",
    "Unkept",
    "Unsaved",
    "local_session",
    "narration",
    "resume",
    "seat_levels",
]
