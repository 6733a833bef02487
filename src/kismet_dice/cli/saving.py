"""The command's side of storage: opening it with one-line messages, and saving a game as it goes."""

from __future__ import annotations

import sys
from typing import TextIO

from kismet_dice.cli.errors import UserError
from kismet_dice.game import Game
from kismet_dice.storage import SavedGame, SavedGameError, Storage, StorageError


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
    """The ``after_action`` of a table: saves the game after every roll and entry.

    The first save creates the saved game. If saving fails the game goes on unsaved, with
    one warning: a full disk should not cost the game being played.
    """

    def __init__(self, storage: Storage, saved: SavedGame | None = None) -> None:
        self._storage = storage
        self.saved = saved
        self.failed = False

    def __call__(self, game: Game) -> None:
        if self.failed:
            return
        try:
            if self.saved is None:
                self.saved = self._storage.games.start(game)
            else:
                self.saved = self._storage.games.save(self.saved.id, game)
        except (StorageError, SavedGameError) as error:
            self.failed = True
            warn(f"{error}; the game goes on but is no longer saved")
