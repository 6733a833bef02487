"""Where the web tables live between actions: one JSON file per table, written whole after each action.

A table file holds the engine's JSON record of the game and, for each seat, a digest of its
seat token (never the token itself, so the file cannot be used to take a seat). Files are
replaced atomically, so a crash leaves the table as of its last complete action.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

FORMAT = "kismet-dice web table"
VERSION = 1

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
"""What a table id looks like; anything else never reaches the file system."""


class StoreError(Exception):
    """A table file that cannot be read or written; the message says which and why."""


def token_digest(token: str) -> str:
    """The digest kept for a seat token.

    >>> len(token_digest("abc"))
    64
    """
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class StoredTable:
    """What is kept of a table: the game record and one seat-token digest per seat."""

    id: str
    record: str
    seat_digests: tuple[str, ...]


class TableStore(Protocol):
    """Keeps tables by id; ``save`` replaces a table whole, ``load`` returns ``None`` for an unknown id."""

    def save(self, table: StoredTable) -> None: ...

    def load(self, table_id: str) -> StoredTable | None: ...


class TableFiles:
    """A :class:`TableStore` in a directory: ``<id>.json`` per table."""

    def __init__(self, directory: Path) -> None:
        self._directory = Path(directory)
        try:
            self._directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot create {self._directory}: {error.strerror}") from None

    def _path(self, table_id: str) -> Path:
        if not TABLE_ID.match(table_id):
            raise StoreError(f"{table_id!r} is not a table id")
        return self._directory / f"{table_id}.json"

    def save(self, table: StoredTable) -> None:
        path = self._path(table.id)
        text = json.dumps(
            {
                "format": FORMAT,
                "version": VERSION,
                "record": table.record,
                "seat_digests": list(table.seat_digests),
            }
        )
        try:
            handle, temporary = tempfile.mkstemp(dir=self._directory, prefix=".table-", suffix=".tmp")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as file:
                    file.write(text)
                    file.flush()
                    os.fsync(file.fileno())
                os.replace(temporary, path)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError as error:
            raise StoreError(f"cannot write {path}: {error.strerror}") from None

    def load(self, table_id: str) -> StoredTable | None:
        if not TABLE_ID.match(table_id):
            return None
        path = self._path(table_id)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError as error:
            raise StoreError(f"cannot read {path}: {error.strerror}") from None
        try:
            data = json.loads(text)
        except ValueError:
            raise StoreError(f"{path} is not JSON") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
            raise StoreError(f"{path} is not a table file this program reads")
        record = data.get("record")
        digests = data.get("seat_digests")
        if not isinstance(record, str) or not (
            isinstance(digests, list) and all(isinstance(d, str) for d in digests)
        ):
            raise StoreError(f"{path} is malformed")
        return StoredTable(table_id, record, tuple(digests))
