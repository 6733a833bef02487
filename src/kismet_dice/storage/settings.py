"""Settings kept between runs: small texts under a key, such as the last set-up of a game."""

from __future__ import annotations

from kismet_dice.storage.database import Database


class Settings:
    """Keyed texts in the database; a missing key reads as ``None``.

    >>> import tempfile
    >>> from kismet_dice.storage import Storage
    >>> with tempfile.TemporaryDirectory() as home, Storage.open(home) as storage:
    ...     storage.settings.put("setup", '{"seats": 1}')
    ...     storage.settings.get("setup"), storage.settings.get("other")
    ('{"seats": 1}', None)
    """

    def __init__(self, database: Database) -> None:
        self._database = database

    def get(self, key: str) -> str | None:
        rows = self._database.read("SELECT value FROM setting WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def put(self, key: str, value: str) -> None:
        self._database.write(
            lambda connection: connection.execute(
                "INSERT INTO setting (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
        )
