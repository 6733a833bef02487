"""The command's side of storage: opening it with one-line messages, and saving a game as it goes."""

from __future__ import annotations

import sys
from typing import TextIO

from kismet_dice.cli.errors import UserError
from kismet_dice.game import Game
from kismet_dice.session import GameKeeper
from kismet_dice.storage import SavedGame, Storage, StorageError


def warn(message: str, stream: TextIO | None = None) -> None:
    """One line on standard error, so standard output (e.g. ``--json``) stays clean."""
    print(f"kismet: {message}", file=stream or sys.stderr, flush=True)


def open_storage() -> Storage:
    """The storage, after telling the person about a damaged file moved aside; else a UserError."""
    try:
        storage = Storage.open()
    except StorageError as error:
        raise UserError(str(error)) from None
    if storage.moved_aside is not None:
        warn(storage.moved_aside.message)
    return storage


class GameSaver:
    """The ``after_action`` of the plain table: a :class:`GameKeeper` that warns once on stderr."""

    def __init__(self, storage: Storage, saved: SavedGame | None = None) -> None:
        self._keeper = GameKeeper(storage, saved)

    @property
    def saved(self) -> SavedGame | None:
        return self._keeper.saved

    @saved.setter
    def saved(self, saved: SavedGame | None) -> None:
        self._keeper.saved = saved

    @property
    def failed(self) -> bool:
        return self._keeper.problem is not None

    def __call__(self, game: Game) -> None:
        if self.failed:
            return
        self._keeper.keep(game)
        if self._keeper.problem is not None:
            warn(self._keeper.problem)
