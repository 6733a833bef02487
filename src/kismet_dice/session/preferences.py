"""A person's settings for local play, kept between runs in the storage's settings.

The terminal game and plain text read the same preferences: the name of the first seat, the
computer's pace, the terminal's theme and whether one key enters a box. Each setting's key
and default are defined once, here; a stored value that no longer reads falls back to its
default rather than stopping the game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Final

from kismet_dice.game import check_name
from kismet_dice.rules import IllegalAction
from kismet_dice.session.seats import COMPUTER_PACE
from kismet_dice.storage import Settings

PREFIX: Final = "preferences."
"""Every preference is stored under this prefix and its field's name."""

MAX_PACE: Final = 10.0
"""The slowest pace offered, in seconds: slower than this reads as a mistake."""


@dataclass(frozen=True)
class Preferences:
    """``default_name`` is the first seat's name; ``pace`` the seconds between a computer
    player's actions; ``theme`` a Textual theme's name; ``enter_at_once`` makes one key or click
    enter a box (zeros are still confirmed) instead of choosing it first."""

    default_name: str = "Player 1"
    pace: float = COMPUTER_PACE
    theme: str = "textual-dark"
    enter_at_once: bool = False

    def checked(self) -> Preferences:
        """The preferences with the name trimmed, or :class:`IllegalAction` saying what is wrong.

        >>> Preferences(default_name="  Ann ").checked().default_name
        'Ann'
        >>> Preferences(pace=-1).checked()
        Traceback (most recent call last):
        ...
        kismet_dice.rules.errors.IllegalAction: the pace is a number of seconds from 0 to 10
        """
        name = check_name(self.default_name)
        if not (math.isfinite(self.pace) and 0 <= self.pace <= MAX_PACE):
            raise IllegalAction(f"the pace is a number of seconds from 0 to {MAX_PACE:g}")
        if not self.theme.strip():
            raise IllegalAction("the theme needs a name")
        return replace(self, default_name=name, theme=self.theme.strip())

    @classmethod
    def load(cls, settings: Settings) -> Preferences:
        """The stored preferences; each missing or unreadable one is its default.

        >>> import tempfile
        >>> from kismet_dice.storage import Storage
        >>> with tempfile.TemporaryDirectory() as home, Storage.open(home) as storage:
        ...     Preferences(default_name="Ann", enter_at_once=True).save(storage.settings)
        ...     storage.settings.put("preferences.pace", "fast")
        ...     Preferences.load(storage.settings)
        Preferences(default_name='Ann', pace=0.6, theme='textual-dark', enter_at_once=True)
        """
        default = cls()
        values: dict[str, object] = {}
        for each in fields(cls):
            text = settings.get(PREFIX + each.name)
            if text is None:
                continue
            value = _read(text, getattr(default, each.name))
            if value is not None:
                values[each.name] = value
        loaded = replace(default, **values)  # type: ignore[arg-type]
        try:
            return loaded.checked()
        except IllegalAction:
            # One bad value must not lose the others: keep each that checks on its own.
            kept = default
            for name, value in values.items():
                try:
                    kept = replace(kept, **{name: value}).checked()  # type: ignore[arg-type]
                except IllegalAction:
                    continue
            return kept

    def save(self, settings: Settings) -> None:
        """Store every preference (checked first: :class:`IllegalAction` stores nothing)."""
        checked = self.checked()
        for each in fields(self):
            value = getattr(checked, each.name)
            settings.put(PREFIX + each.name, _write(value))


def _read(text: str, default: object) -> object | None:
    """``text`` as a value of the default's type; ``None`` when it does not read."""
    if isinstance(default, bool):
        return {"true": True, "false": False}.get(text)
    if isinstance(default, float):
        try:
            return float(text)
        except ValueError:
            return None
    return text


def _write(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


__all__ = ["MAX_PACE", "PREFIX", "Preferences"]
