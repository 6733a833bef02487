"""What can go wrong with the saved Hall of Fame and games, as errors an interface can show in one line."""

from __future__ import annotations


class StorageError(Exception):
    """The data cannot be read or written where it lives; the message names the path and the cause."""


class NotEligible(ValueError):
    """A Hall of Fame entry for a computer player or a hint-assisted game, which the rules keep out."""


class SavedGameError(ValueError):
    """A saved game that does not exist, or whose record does not replay through the rules."""
