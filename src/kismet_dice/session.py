"""A game at a table: the engine's game plus what the rules do not know.

Which seats are computer players and at what level, whether anyone asked for advice
(an assisted game cannot enter the Hall of Fame), the dice a person means to hold before
the next roll, and a hook called after every action so the game can be saved. Every
interface plays through this one class; it holds no rules of its own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from kismet_dice.game import Action, DiceSource, Game, HouseRules, Roll, Score, check_name
from kismet_dice.rules import Box, Dice, IllegalAction
from kismet_dice.storage import SavedGame, SavedGameError, Storage, StorageError
from kismet_dice.strategy import LEVELS, ComputerPlayer

MAX_SEATS = 6
# Seconds between a computer player's actions: slow enough for a person to follow.
COMPUTER_PACE = 0.6


@dataclass(frozen=True)
class Seat:
    """A place at the table: a person, or a computer player at ``level``."""

    name: str
    level: str | None = None

    @property
    def is_computer(self) -> bool:
        return self.level is not None

    def describe(self) -> str:
        return f"{self.name} (computer, {self.level})" if self.level else self.name


@dataclass(frozen=True)
class Setup:
    """What a new game needs: the seats in seating order and the house rules."""

    seats: tuple[Seat, ...] = (Seat("Player"),)
    house_rules: HouseRules = field(default_factory=HouseRules)

    def checked(self) -> Setup:
        """The set-up with names trimmed, or :class:`IllegalAction` saying what is wrong."""
        if not 1 <= len(self.seats) <= MAX_SEATS:
            raise IllegalAction(f"a table has 1 to {MAX_SEATS} players")
        seats = tuple(replace(seat, name=check_name(seat.name)) for seat in self.seats)
        for seat in seats:
            if seat.level is not None and seat.level not in LEVELS:
                raise IllegalAction(f"a computer player is easy, medium or hard, not {seat.level!r}")
        if len({seat.name for seat in seats}) != len(seats):
            raise IllegalAction("two players cannot share a name")
        return Setup(seats, self.house_rules)

    def to_json(self) -> str:
        seats = [{"name": seat.name, "level": seat.level} for seat in self.seats]
        return json.dumps({"seats": seats, "zero_kismet_counts": self.house_rules.zero_kismet_counts})

    @classmethod
    def from_json(cls, text: str) -> Setup:
        """A set-up written by :meth:`to_json`; anything else raises :class:`IllegalAction`."""
        try:
            data = json.loads(text)
            seats = tuple(Seat(str(seat["name"]), seat["level"]) for seat in data["seats"])
            rules = HouseRules(zero_kismet_counts=bool(data["zero_kismet_counts"]))
        except (ValueError, TypeError, KeyError) as error:
            raise IllegalAction(f"not a set-up: {error}") from None
        return Setup(seats, rules).checked()


class Session:
    """One game being played, with its seats, its assisted mark and a hook after every action."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[Seat],
        *,
        computer: Callable[[str], ComputerPlayer],
        assisted: bool = False,
        after_action: Callable[[Session], None] | None = None,
    ) -> None:
        if tuple(seat.name for seat in seats) != game.names:
            raise IllegalAction("the seats do not match the game's players")
        self.game = game
        self.seats = tuple(seats)
        self._assisted = assisted
        self._players = {seat.level: computer(seat.level) for seat in seats if seat.level}
        self._after_action = after_action or (lambda session: None)
        self._hold: frozenset[int] = frozenset()

    @classmethod
    def new(
        cls,
        setup: Setup,
        *,
        computer: Callable[[str], ComputerPlayer],
        rng: DiceSource | None = None,
        after_action: Callable[[Session], None] | None = None,
    ) -> Session:
        setup = setup.checked()
        game = Game([seat.name for seat in setup.seats], rng=rng, house_rules=setup.house_rules)
        return cls(game, setup.seats, computer=computer, after_action=after_action)

    # --- what the table shows ---------------------------------------------------------

    @property
    def assisted(self) -> bool:
        """Whether anyone asked for advice: the game then cannot enter the Hall of Fame."""
        return self._assisted

    @property
    def hold(self) -> frozenset[int]:
        """Positions (0-4) the person means to keep at the next roll."""
        return self._hold

    @property
    def current_seat(self) -> Seat | None:
        seat = self.game.current_player
        return None if seat is None else self.seats[seat]

    @property
    def is_computer_turn(self) -> bool:
        seat = self.current_seat
        return seat is not None and seat.is_computer

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(number for number, seat in enumerate(self.seats) if not seat.is_computer)

    def result(self) -> str:
        """Who won, in words, once the game is over.

        >>> from kismet_dice.game import ScriptedDice
        >>> game = Game(["Ann"], rng=ScriptedDice([1] + [1, 2, 3, 4, 6] * 15))
        >>> for box in Box:
        ...     _ = game.roll(); _ = game.score(box)
        >>> Session(game, [Seat("Ann")], computer=lambda level: None).result()
        'Ann scores 32.'
        """
        game = self.game
        if not game.is_over:
            return "The game is not over."
        names = [game.names[seat] for seat in game.winners]
        best = game.total(game.winners[0])
        if len(game.names) == 1:
            return f"{names[0]} scores {best}."
        if len(names) == 1:
            return f"{names[0]} wins with {best}."
        return f"{' and '.join(names)} share the win with {best}."

    # --- a person's actions -------------------------------------------------------------

    def toggle_hold(self, position: int) -> None:
        """Hold a die that is free, free one that is held."""
        if self.game.is_over:
            raise IllegalAction("the game is over")
        if not self.game.dice:
            raise IllegalAction("roll first: nothing can be held before the turn's first roll")
        if not self.game.rolls_left:
            raise IllegalAction("no rolls are left: choose a box")
        if not 0 <= position < 5:
            raise IllegalAction(f"a die's position is 1 to 5, not {position + 1}")
        self._hold = self._hold ^ {position}

    def set_hold(self, positions: Sequence[int]) -> None:
        """Hold exactly these dice (positions 0-4) at the next roll, e.g. as advice suggests."""
        for position in positions:
            if not 0 <= position < 5:
                raise IllegalAction(f"a die's position is 1 to 5, not {position + 1}")
        if positions and (not self.game.dice or not self.game.rolls_left):
            raise IllegalAction("nothing can be held now")
        self._hold = frozenset(positions)

    def roll(self) -> Dice:
        """Roll the dice not held."""
        dice = self.game.roll(sorted(self._hold))
        self._after(Roll(tuple(sorted(self._hold))))
        return dice

    def score(self, box: Box) -> int:
        points = self.game.score(box)
        self._hold = frozenset()
        self._after(Score(box))
        return points

    def mark_assisted(self) -> None:
        """Someone asked the computer for advice: the game can no longer enter the Hall of Fame."""
        if not self._assisted:
            self._assisted = True
            self._after_action(self)

    # --- computer players ---------------------------------------------------------------

    def computer_step(self) -> Action:
        """Let the computer player whose turn it is take one action, and return it."""
        seat = self.current_seat
        if seat is None or seat.level is None:
            raise IllegalAction("it is not a computer player's turn")
        action = self._players[seat.level].choose(self.game)
        self.game.apply(action)
        self._hold = frozenset()
        self._after(action)
        return action

    def _after(self, action: Action) -> None:
        if isinstance(action, Score):
            self._hold = frozenset()
        self._after_action(self)


# --- keeping games and the Hall of Fame ----------------------------------------------------


class GameKeeper:
    """Saves a game after every action; the first save creates the saved game.

    Called with a :class:`Session` it is that session's ``after_action``; :meth:`keep` saves a
    bare :class:`Game`. If saving fails the game goes on unsaved: ``problem`` then says why,
    for the interface to show once. A full disk should not cost the game being played.
    """

    def __init__(self, storage: Storage, saved: SavedGame | None = None) -> None:
        self.storage = storage
        self.saved = saved
        self.problem: str | None = None

    @property
    def saved_id(self) -> int | None:
        return None if self.saved is None else self.saved.id

    def __call__(self, session: Session) -> None:
        self.keep(session.game, levels=[seat.level for seat in session.seats], assisted=session.assisted)

    def keep(self, game: Game, *, levels: Sequence[str | None] | None = None, assisted: bool = False) -> None:
        if self.problem is not None:
            return
        try:
            if self.saved is None:
                self.saved = self.storage.games.start(game, levels=levels, assisted=assisted)
            else:
                # Each save names the version the last one returned: a game written meanwhile by
                # another process is refused (VersionConflict), not overwritten.
                self.saved = self.storage.games.save(
                    self.saved.id, game, version=self.saved.version, assisted=assisted
                )
        except (StorageError, SavedGameError) as error:
            self.problem = f"{error}; the game goes on but is no longer saved"


def seat_levels(saved: SavedGame) -> list[str | None]:
    """Each seat's computer level, ``None`` for a person.

    A computer seat saved before levels were kept plays on at the best level.
    """
    levels = saved.levels or (None,) * len(saved.names)
    return [
        level or ("hard" if computer else None)
        for level, computer in zip(levels, saved.computer, strict=True)
    ]


def resume(
    storage: Storage,
    saved_id: int,
    *,
    computer: Callable[[str], ComputerPlayer],
    rng: DiceSource | None = None,
) -> tuple[Session, GameKeeper]:
    """An unfinished saved game, ready to play on; raises :class:`SavedGameError`."""
    saved, game = storage.games.load(saved_id, rng)
    seats = [Seat(name, level) for name, level in zip(saved.names, seat_levels(saved), strict=True)]
    keeper = GameKeeper(storage, saved)
    session = Session(game, seats, computer=computer, assisted=saved.assisted, after_action=keeper)
    return session, keeper


def hall_candidates(session: Session, storage: Storage) -> tuple[int, ...]:
    """The seats whose totals qualify for the Hall of Fame, best first (seating order on a tie).

    None in an assisted game, and never a computer player.
    """
    game = session.game
    if not game.is_over or session.assisted:
        return ()
    seats = sorted(session.humans, key=lambda seat: -game.total(seat))
    return tuple(seat for seat in seats if storage.hall.qualifies(game.total(seat)))
