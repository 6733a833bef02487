"""What can go wrong with the saved Hall of Fame and games, as errors an interface can show in one line."""

from __future__ import annotations

# What a client far away is told when nothing more specific applies: it names no path.
DEFAULT_PUBLIC = "the game store cannot be used right now"


class StorageError(Exception):
    """The data cannot be read or written where it lives.

    ``str(error)`` names the path and the cause, for the person at this machine; ``public`` says
    the same without any path or SQLite detail, for a client of a server that must not learn
    where or how the server keeps its data.

    >>> error = StorageError("/srv/k.sqlite3 is read-only", public="the game store is read-only")
    >>> str(error), error.public
    ('/srv/k.sqlite3 is read-only', 'the game store is read-only')
    >>> StorageError("cannot use /srv/k.sqlite3: disk I/O error").public
    'the game store cannot be used right now'
    """

    def __init__(self, message: str, *, public: str | None = None) -> None:
        super().__init__(message)
        self.public = DEFAULT_PUBLIC if public is None else public


class NotEligible(ValueError):
    """A Hall of Fame entry for a computer player or a hint-assisted game, which the rules keep out."""


class SavedGameError(ValueError):
    """A saved game that does not exist, or whose record does not replay through the rules."""


class VersionConflict(SavedGameError):
    """A save based on an older read of the game: someone else wrote it since, so nothing was written."""
