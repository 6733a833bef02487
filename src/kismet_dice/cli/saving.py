"""The command's side of storage: opening it, with one-line messages for what goes wrong."""

from __future__ import annotations

import sys
from typing import TextIO

from kismet_dice.cli.errors import UserError
from kismet_dice.storage import Storage, StorageError


def warn(message: str, stream: TextIO | None = None) -> None:
    """One line on standard error, so standard output (e.g. ``--json``) stays clean."""
    print(f"kismet: {message}", file=stream or sys.stderr, flush=True)


def open_storage(database: str | None = None) -> Storage:
    """The storage, after telling the person about a damaged file moved aside; else a UserError.

    ``database`` is a site's PostgreSQL URL; without it ``$KISMET_DATABASE_URL``, else the file.
    """
    try:
        storage = Storage.open(database=database)
    except StorageError as error:
        raise UserError(str(error)) from None
    if storage.moved_aside is not None:
        warn(storage.moved_aside.message)
    return storage
