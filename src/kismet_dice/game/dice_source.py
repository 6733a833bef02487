"""Where the dice come from: any object with ``randint``, injected into the game."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class DiceSource(Protocol):
    """The one method of :class:`random.Random` the engine uses: a die is ``randint(1, 6)``."""

    def randint(self, a: int, b: int) -> int: ...


class ScriptedDice:
    """A dice source that gives the listed faces in order, for tests and replays.

    >>> dice = ScriptedDice([6, 1])
    >>> dice.randint(1, 6), dice.randint(1, 6), dice.remaining
    (6, 1, 0)

    With ``then``, the dice after the script come from ``then``: a replayed game plays on
    with fresh dice. ``drawn_from_then`` counts them, so a replay can tell it used exactly
    its script.

    >>> dice = ScriptedDice([6], then=ScriptedDice([2, 3]))
    >>> dice.randint(1, 6), dice.randint(1, 6), dice.remaining, dice.drawn_from_then
    (6, 2, 0, 1)
    """

    def __init__(self, faces: Iterable[int], then: DiceSource | None = None) -> None:
        self._faces = list(faces)
        self._next = 0
        self._then = then
        self._drawn_from_then = 0

    def randint(self, a: int, b: int) -> int:
        if self._next >= len(self._faces):
            if self._then is None:
                raise ScriptExhausted(f"the script has no die left after {len(self._faces)}")
            face = self._then.randint(a, b)
            self._drawn_from_then += 1
            return face
        face = self._faces[self._next]
        self._next += 1
        return face

    @property
    def remaining(self) -> int:
        """How many scripted faces have not been drawn."""
        return len(self._faces) - self._next

    @property
    def drawn_from_then(self) -> int:
        """How many dice came from ``then`` once the script was used up."""
        return self._drawn_from_then


class ScriptExhausted(LookupError):
    """A scripted dice source was asked for more dice than it holds."""
