"""Keeping a table's game in the store, with the two policies an interface can choose.

Local play (the terminal and plain text) carries on when a save fails: the person's game is
worth more than its copy on disk, so the failure is told once and play goes on unsaved.
The server refuses: an action it cannot keep is not acknowledged, and the game stays exactly
as it was. Every save says which version of the game it extends, so a process holding an
older copy than the store's is told so (:class:`Stale`) instead of overwriting newer moves.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from kismet_dice.game import Game
from kismet_dice.storage import (
    HallEntry,
    SavedGame,
    SavedGameError,
    Storage,
    StorageError,
    VersionConflict,
)
from kismet_dice.strategy import Level


class Policy(enum.Enum):
    """What a failed save does."""

    CARRY_ON = "carry on"
    """Local play: say it once, go on unsaved."""
    REFUSE = "refuse"
    """The server: refuse the action; the game stays as it was."""


class Unsaved(Exception):
    """The change could not be kept, so it was not made; the message is fit for any client."""


class Stale(Exception):
    """The store holds a newer version of the game than the one this change was made to."""


class Keeper(Protocol):
    """Where a session keeps its game after every change, and its Hall of Fame."""

    @property
    def version(self) -> int:
        """The version of the game as last kept (it grows by one with every change kept)."""
        ...

    @property
    def problem(self) -> str | None:
        """Why saving stopped, once it has (local play only); ``None`` while all is well."""
        ...

    @property
    def kept(self) -> bool:
        """Whether the store holds the game as last changed, so it can be resumed from there:
        kept at least once (a local game is stored at its first change) and no save failed since."""
        ...

    @property
    def has_hall(self) -> bool:
        """Whether there is a Hall of Fame to enter."""
        ...

    def keep(self, game: Game, *, levels: Sequence[Level | None], assisted: bool) -> None:
        """Keep ``game`` as the next version; raises :class:`Unsaved` or :class:`Stale` to refuse."""
        ...

    def hall_totals(self) -> tuple[int, ...]:
        """The totals on the Hall of Fame now, best first."""
        ...

    def answer_hall(self, game: Game, seat: int, name: str | None) -> HallEntry | None:
        """Enter ``seat``'s total under ``name`` (``None`` declines) and mark the seat asked, together."""
        ...

    def mark_hall_asked(self, seats: Sequence[int]) -> None:
        """Mark seats asked that no longer qualify (they are told so instead)."""
        ...


class Unkept:
    """Keeps nothing: a game played without a store has no saves and no Hall of Fame."""

    has_hall = False
    problem = None
    kept = False

    def __init__(self) -> None:
        self._version = 0

    @property
    def version(self) -> int:
        return self._version

    def keep(self, game: Game, *, levels: Sequence[Level | None], assisted: bool) -> None:
        self._version += 1

    def hall_totals(self) -> tuple[int, ...]:
        return ()

    def answer_hall(self, game: Game, seat: int, name: str | None) -> HallEntry | None:
        raise Unsaved("there is no Hall of Fame without a store")

    def mark_hall_asked(self, seats: Sequence[int]) -> None:
        self._version += 1


class StoreKeeper:
    """Keeps a game in a :class:`Storage` under ``policy``.

    A local game is created in the store at its first change, so a set-up nobody played leaves
    nothing behind; the server's games are created with their table (``saved`` given).
    """

    has_hall = True

    def __init__(
        self,
        storage: Storage,
        saved: SavedGame | None = None,
        *,
        policy: Policy = Policy.CARRY_ON,
        owner: str | None = None,
    ) -> None:
        self.storage = storage
        self.saved = saved
        self.policy = policy
        self.owner = owner
        self._problem: str | None = None

    @property
    def version(self) -> int:
        return 0 if self.saved is None else self.saved.version

    @property
    def problem(self) -> str | None:
        return self._problem

    @property
    def kept(self) -> bool:
        # The first save is version 0: whether there is a saved game at all tells, not its version.
        return self.saved is not None and self._problem is None

    @property
    def saved_id(self) -> int | None:
        return None if self.saved is None else self.saved.id

    def keep(self, game: Game, *, levels: Sequence[Level | None], assisted: bool) -> None:
        if self._problem is not None:
            return
        try:
            if self.saved is None:
                self.saved = self.storage.games.start(
                    game, levels=list(levels), assisted=assisted, owner=self.owner
                )
            else:
                self.saved = self.storage.games.save(
                    self.saved.id, game, version=self.saved.version, assisted=assisted, known=self.saved
                )
        except VersionConflict as error:
            self._fail(error, stale=True)
        except (StorageError, SavedGameError) as error:
            self._fail(error)

    def _fail(self, error: Exception, *, stale: bool = False) -> None:
        if self.policy is Policy.REFUSE:
            if stale:
                raise Stale(str(error)) from None
            raise Unsaved(_public(error)) from None
        self._problem = f"{error}; the game goes on but is no longer saved"

    def hall_totals(self) -> tuple[int, ...]:
        return tuple(entry.total for entry in self.storage.hall.entries())

    def answer_hall(self, game: Game, seat: int, name: str | None) -> HallEntry | None:
        total = game.total(seat)
        try:
            if self.saved is None or self._problem is not None:
                # A game that could not be saved still earns its place: the entry alone is kept.
                if name is None:
                    return None
                return self.storage.hall.submit(
                    name, total, players=len(game.names), computer=False, assisted=False
                )
            answer = self.storage.games.answer_hall(
                self.saved.id, seat, name, version=self.saved.version, total=total, players=len(game.names)
            )
        except VersionConflict as error:
            raise Stale(str(error)) from None
        except (StorageError, SavedGameError) as error:
            raise Unsaved(_public(error) if self.policy is Policy.REFUSE else str(error)) from None
        self.saved = replace(self.saved, version=answer.version, hall_asked=answer.hall_asked)
        return answer.entry

    def mark_hall_asked(self, seats: Sequence[int]) -> None:
        if self.saved is None or self._problem is not None:
            return
        try:
            version = self.storage.games.mark_hall_asked(self.saved.id, seats, version=self.saved.version)
        except VersionConflict as error:
            raise Stale(str(error)) from None
        except (StorageError, SavedGameError) as error:
            raise Unsaved(_public(error) if self.policy is Policy.REFUSE else str(error)) from None
        asked = tuple(sorted({*self.saved.hall_asked, *seats}))
        self.saved = replace(self.saved, version=version, hall_asked=asked)


def _public(error: Exception) -> str:
    """What may be said of a storage failure to anyone: never a file path."""
    if isinstance(error, StorageError):
        return f"the game could not be saved: {error.public}"
    return "the game could not be saved"
