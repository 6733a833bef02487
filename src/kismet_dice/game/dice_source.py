"""Where the dice come from: any object with ``randint``, injected into the game."""

from __future__ import annotations

import os
import secrets
import threading
import weakref
from collections.abc import Callable, Iterable
from typing import Final, Protocol


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


FACES_PER_BYTE: Final = 252
"""The bytes that give a face: 0 to 251, 42 of each face; a byte from 252 on is dropped, so every
face is exactly as likely."""


class SystemDice:
    """Dice from the operating system's random source, as :class:`random.SystemRandom` gives them,
    read a block of bytes at a time: a server asks the system once for some two hundred dice rather
    than once for each die (a system call each, a measured part of its work per action).

    ``read(n)`` gives ``n`` random bytes (by default :func:`os.urandom`; tests give their own).
    A process forked from this one starts with an empty block: it never rolls its parent's dice.

    >>> dice = SystemDice(read=lambda n: bytes([0, 5, 251, 252, 255, 6] * (n // 6 + 1))[:n])
    >>> [dice.randint(1, 6) for _ in range(5)]
    [1, 6, 6, 1, 1]
    """

    BLOCK: Final = 256

    def __init__(self, read: Callable[[int], bytes] = os.urandom) -> None:
        self._read = read
        self._block = b""
        self._next = 0
        self._lock = threading.Lock()
        _SYSTEM_DICE.add(self)

    def randint(self, a: int, b: int) -> int:
        if (a, b) != (1, 6):
            return secrets.SystemRandom().randint(a, b)  # not a die: asked of the system directly
        with self._lock:
            while True:
                if self._next >= len(self._block):
                    self._block, self._next = self._read(self.BLOCK), 0
                byte = self._block[self._next]
                self._next += 1
                if byte < FACES_PER_BYTE:
                    return byte % 6 + 1

    def _forget(self) -> None:
        self._block, self._next = b"", 0
        self._lock = threading.Lock()


_SYSTEM_DICE: weakref.WeakSet[SystemDice] = weakref.WeakSet()


def _forget_after_fork() -> None:
    for dice in list(_SYSTEM_DICE):
        dice._forget()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)
