"""A game at a table: the engine's game plus what the rules do not know.

Which seats are computer players and at what level, whether anyone asked for advice (an
assisted game cannot enter the Hall of Fame), who has been asked for a Hall of Fame name, and
where the game is kept after every change. Every interface plays through this one class:
:meth:`Session.act` takes a person's action (holds travel with the roll, so each interface
keeps its own choice of held dice until then) and returns what happened, told in words.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from kismet_dice.game import Action, DiceSource, Game, Resigned, Roll, Scored, check_name
from kismet_dice.rules import Box, IllegalAction
from kismet_dice.session import narration
from kismet_dice.session.hall_chances import HallAdvice, HallChances
from kismet_dice.session.keeping import Keeper, StoreKeeper, Unkept
from kismet_dice.session.narration import Told
from kismet_dice.session.seats import BadSetup, Seat, Setup
from kismet_dice.storage import HallEntry, SavedGame, Storage, StorageError, entering_total, qualifies
from kismet_dice.strategy import Advisor, Computer, ComputerPlayer, Goal, Level, Option, kismet_rules
from kismet_dice.strategy.distribution import Distribution, distribution_path
from kismet_dice.strategy.distribution import load as load_distribution
from kismet_dice.strategy.solver import Progress

Players = Callable[[Level, Goal], ComputerPlayer]
"""Makes the computer player of a level (``hard`` may load the strategy table first); the goal is
what the ``target`` player plays for (:meth:`Session.hall_goal`)."""


class NotYourTurn(IllegalAction):
    """An action for a seat whose turn it is not; the game is unchanged."""


class BadName(IllegalAction):
    """A name the Hall of Fame cannot take: empty, too long, or with control characters."""


@dataclass(frozen=True)
class HallOutcome:
    """What answering a Hall of Fame prompt did.

    ``entry`` is the new entry (``None`` if declined or no longer good enough); ``dropped``
    are the other seats of the game that qualified before this answer and no longer do; they
    are not asked any more. ``told`` says all of it in sentences, for every page or screen.
    """

    seat: int
    entry: HallEntry | None
    dropped: tuple[int, ...]
    told: tuple[str, ...]


class Session:
    """One game being played, with its seats, its assisted mark and the keeper of its saves."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[Seat],
        *,
        computer: Players | None = None,
        keeper: Keeper | None = None,
        assisted: bool = False,
        hall_asked: Sequence[int] = (),
    ) -> None:
        if tuple(seat.name for seat in seats) != game.names:
            raise IllegalAction("the seats do not match the game's players")
        if computer is None and any(seat.is_computer for seat in seats):
            raise BadSetup("no computer players are available")
        self._game = game
        self.seats = tuple(seats)
        self.keeper: Keeper = keeper if keeper is not None else Unkept()
        self._computer = computer
        self._players: dict[Level, ComputerPlayer] = {}
        self._goal = 0
        self._assisted = assisted
        self._hall_asked = frozenset(hall_asked)
        # The last action's events, told: (the game it left, where they start, its length), the told.
        self._told: tuple[tuple[Game, int, int], tuple[Told, ...]] | None = None
        self._standings: tuple[str, ...] | None = None  # once the game is over (then never changes)

    @classmethod
    def new(
        cls,
        setup: Setup,
        *,
        computer: Players | None = None,
        rng: DiceSource | None = None,
        keeper: Keeper | None = None,
    ) -> Session:
        setup = setup.checked()
        game = Game([seat.name for seat in setup.seats], rng=rng, house_rules=setup.house_rules)
        return cls(game, setup.seats, computer=computer, keeper=keeper)

    # --- what the table shows ---------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game as last kept. Each change replaces it: read it again after acting."""
        return self._game

    @property
    def version(self) -> int:
        """Grows with every change kept: a newer state has a higher version."""
        return self.keeper.version

    @property
    def kept(self) -> bool:
        """Whether the store holds the game as it is now, so it can be resumed from here."""
        return self.keeper.kept

    @property
    def assisted(self) -> bool:
        """Whether anyone asked for advice: the game then cannot enter the Hall of Fame."""
        return self._assisted

    @property
    def levels(self) -> tuple[Level | None, ...]:
        return tuple(seat.level for seat in self.seats)

    @property
    def current_seat(self) -> Seat | None:
        seat = self._game.current_player
        return None if seat is None else self.seats[seat]

    @property
    def is_computer_turn(self) -> bool:
        seat = self.current_seat
        return seat is not None and seat.is_computer

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(number for number, seat in enumerate(self.seats) if not seat.is_computer)

    @property
    def has_computer(self) -> bool:
        return any(seat.is_computer for seat in self.seats)

    def story(self, start: int = 0) -> tuple[Told, ...]:
        """What happened from history event ``start`` on, in sentences."""
        game = self._game
        if self._told is not None:
            (told_game, told_start, length), told = self._told
            if told_game is game and told_start == start and length == len(game.history):
                return told  # the last action's events, told when it was taken
        return narration.story(game, start)

    def result(self) -> str:
        """Who won, in words, once the game is over."""
        return narration.result(self._game)

    def standings(self, perfect: Distribution | None = None) -> tuple[str, ...]:
        """Once the game is over, how each person's total compares with perfect play, in words:
        against ``perfect`` (:meth:`Computer.perfect_play <kismet_dice.strategy.Computer.perfect_play>`,
        which the end of a game asks for where the computer's table is stored), else the
        distribution stored on this machine, if it is (else nothing)."""
        game = self._game
        if not game.is_over or not self.humans:
            return ()
        if self._standings is None:
            # Read once it is there: every view of a finished game shows them. (Until it is
            # stored, each view looks again: it may be stored while the end is on the screen.)
            if perfect is None:
                rules = kismet_rules()
                perfect = load_distribution(rules, distribution_path(rules))
            if perfect is None:
                return ()
            self._standings = tuple(
                narration.standing(game.names[seat], game.total(seat), perfect.below(game.total(seat)))
                for seat in self.humans
            )
        return self._standings

    @property
    def standings_to_work_out(self) -> bool:
        """Whether the game is over with people at the table and no distribution of perfect play
        stored to say its standings: the end of a game then asks :meth:`work_out_standings`."""
        return self._game.is_over and bool(self.humans) and not self.standings()

    def work_out_standings(self, computer: Computer, progress: Progress | None = None) -> tuple[str, ...]:
        """:meth:`standings`, working out the distribution of perfect play first where it is not
        stored (the first time on a machine: a few seconds once the computer's table is loaded).
        The end of a game asks this off the interface's event loop, where the table is stored;
        raises :class:`ComputerUnavailable` as the computer does."""
        if not self.standings_to_work_out:
            return self.standings()
        return self.standings(computer.perfect_play(progress))

    # --- actions ------------------------------------------------------------------------

    def act(self, seat: int, action: Action) -> tuple[Told, ...]:
        """A person's action for ``seat``: a :class:`Roll` with the dice to hold, or a ``Score``.

        Returns the events it caused, told. Raises :class:`IllegalAction` (the game unchanged)
        when it is not that seat's turn or the rules refuse it, and the keeper's refusal when the
        change cannot be kept (then too the game is as it was).
        """
        game = self._game
        if game.is_over:
            raise IllegalAction("the game is over")
        if not 0 <= seat < len(self.seats):
            raise IllegalAction(f"there is no seat {seat + 1} at this table")
        current = game.current_player
        assert current is not None
        if seat != current:
            raise NotYourTurn(f"it is {game.names[current]}'s turn, not {game.names[seat]}'s")
        if self.seats[seat].is_computer:
            raise NotYourTurn(f"{game.names[seat]} is a computer player: the computer plays its turns")
        return self._apply(action)

    def roll(self, seat: int, hold: Sequence[int] = ()) -> tuple[Told, ...]:
        """Roll for ``seat``, keeping the dice at positions ``hold`` (0-4)."""
        return self.act(seat, Roll(tuple(hold)))

    def computer_step(self) -> tuple[Told, ...]:
        """Let the computer player whose turn it is take one action; what it did, told."""
        seat = self.current_seat
        if seat is None or seat.level is None:
            raise IllegalAction("it is not a computer player's turn")
        return self._apply(self._player(seat.level).choose(self._game))

    def _player(self, level: Level) -> ComputerPlayer:
        # Made at its first move: a table with a hard seat opens before the strategy table loads.
        player = self._players.get(level)
        if player is None:
            assert self._computer is not None
            player = self._players[level] = self._computer(level, self.hall_goal)
        return player

    def hall_goal(self) -> int:
        """The total a ``target`` computer plays for: the least that enters the Hall of Fame now
        (0 while it has fewer than ten entries: every total enters, so it plays for the best
        expected total). If the Hall cannot be read just now, the last total read."""
        with contextlib.suppress(StorageError):
            self._goal = entering_total(self.keeper.hall_totals()) or 0
        return self._goal

    @property
    def turn_key(self) -> tuple[int, int] | None:
        """Which person's turn it is, as ``(turns ended so far, seat)``: the same for a whole turn,
        different for every turn (``None`` while a computer plays, or once the game is over)."""
        game = self._game
        seat = game.current_player
        if seat is None or self.seats[seat].is_computer:
            return None
        ended = sum(1 for event in game.history if isinstance(event, Scored | Resigned))
        return ended, seat

    def time_out(self, turn: tuple[int, int]) -> tuple[tuple[Told, ...], str]:
        """The time of the person's turn ``turn`` (:attr:`turn_key`) ran out: the table plays it by
        :data:`~kismet_dice.session.narration.TIME_OUT_RULE`, rolling if no roll was made, then
        entering the dice in the open box that scores most (the highest on the sheet on a tie). One
        change, kept once. Returns what happened, told, and the sentence saying the table played.
        :class:`IllegalAction` if that turn is over already (someone played meanwhile).
        """
        if self.turn_key != turn:
            raise IllegalAction("that turn is over already")
        seat = turn[1]
        rolled_for = not self._game.dice
        chosen: list[tuple[Box, int]] = []

        def play(trial: Game) -> None:
            if not trial.dice:
                trial.roll()
            options = trial.options()
            box = max(options, key=lambda each: (options[each], -each.value))
            chosen.append((box, trial.score(box)))

        told = self._apply(play)
        box, points = chosen[0]
        return told, narration.timed_out(self._game.names[seat], rolled_for, box, points)

    def resign(self, seat: int) -> tuple[Told, ...]:
        """A person leaves the game for good, in their turn or not: each open box of their sheet
        gets a 0 and they take no more turns, so the game goes on for the others. If no other
        person with an open box is left (only computers, or nobody), the game ends there: a table
        of computers alone is nobody's game. Returns what happened, told.
        """
        game = self._game
        if game.is_over:
            raise IllegalAction("the game is over")
        if not 0 <= seat < len(self.seats):
            raise IllegalAction(f"there is no seat {seat + 1} at this table")
        if self.seats[seat].is_computer:
            raise IllegalAction(f"{game.names[seat]} is a computer player: only a person resigns")
        if seat in game.resigned:
            raise IllegalAction(f"{game.names[seat]} has resigned already")
        others = [other for other in self.humans if other != seat and game.sheet(other).open_boxes]
        return self._apply(lambda trial: trial.resign(seat, end=not others))

    def _apply(self, action: Action | Callable[[Game], object]) -> tuple[Told, ...]:
        # The action is tried on a copy, which becomes the game only once it is kept.
        trial = self._game.copy()
        start = len(trial.history)
        if callable(action):
            action(trial)
        else:
            trial.apply(action)
        self.keeper.keep(trial, levels=self.levels, assisted=self._assisted)
        self._game = trial
        told = narration.story(trial, start)
        self._told = ((trial, start, len(trial.history)), told)
        return told

    def advise(self, seat: int, advisor: Advisor) -> tuple[Option, ...]:
        """The advisor's options for ``seat``'s dice, best first; the game is marked assisted for good.

        Only for a person whose turn it is, after the turn's first roll.
        """
        self.check_advice(seat)
        options = advisor.game_options(self._game, seat)
        self.mark_assisted()
        return options

    def hall_advice(self, seat: int, options: Sequence[Option], chances: HallChances) -> HallAdvice:
        """What the advice ``options`` for ``seat``'s dice say of the Hall of Fame, at once: the total
        that would make it now (one more than its tenth entry, from the store), with each option's
        chance if ``chances`` remembers it, else the line said instead, or pending (then
        :meth:`HallChances.work_out` finds them, off any event loop). No Hall of Fame, no chances."""
        self.check_advice(seat)
        game = self._game
        advice = HallAdvice(tuple(options), game.sheet(seat), game.dice, game.rolls_left)
        if not self.keeper.has_hall:
            return advice
        target = entering_total(self.keeper.hall_totals())
        if target is None:
            return replace(advice, note=narration.HALL_ANY_TOTAL)
        return chances.plan(replace(advice, target=target))

    def check_advice(self, seat: int) -> None:
        """Refuse advice for ``seat`` now (:class:`IllegalAction`) unless it could be given."""
        game = self._game
        if game.is_over:
            raise IllegalAction("the game is over")
        current = game.current_player
        assert current is not None
        if seat != current or self.seats[seat].is_computer:
            raise NotYourTurn(f"it is {game.names[current]}'s turn, not {game.names[seat]}'s")
        if not game.dice:
            raise IllegalAction("roll first: advice is about the dice on the table")

    def mark_assisted(self) -> None:
        """Someone asked the computer for advice: the game can no longer enter the Hall of Fame."""
        if not self._assisted:
            self.keeper.keep(self._game, levels=self.levels, assisted=True)
            self._assisted = True

    # --- the Hall of Fame ---------------------------------------------------------------

    def hall_prompts(self) -> tuple[int, ...]:
        """The seats to ask for a Hall of Fame name now, best total first (seating order on a tie).

        Only once the game is over, never in an assisted game, never a computer player, never a
        seat already asked, and only while the total still qualifies.
        """
        waiting = list(self._unasked())
        if not waiting:
            return ()
        game = self._game
        totals = self.keeper.hall_totals()
        waiting.sort(key=lambda seat: -game.total(seat))
        return tuple(seat for seat in waiting if qualifies(game.total(seat), totals))

    def _why_not_asked(self, seat: int) -> str:
        game = self._game
        if not game.is_over:
            return "the game is not over yet"
        if seat in self.humans and seat in self._hall_asked and not self._assisted:
            # Answered (twice, say), or marked asked when another entry took the last place while
            # the prompt was still on the page: the store does not tell which, so both are said.
            return (
                f"{game.names[seat]} has no Hall of Fame prompt to answer any more: it was answered, "
                "or the total no longer makes the list"
            )
        who = game.names[seat] if 0 <= seat < len(game.names) else "that seat"
        return f"{who} has no Hall of Fame entry to make"

    def _unasked(self) -> tuple[int, ...]:
        """The people who may still answer a Hall of Fame prompt (whether or not they qualify now)."""
        if not self._game.is_over or self._assisted or not self.keeper.has_hall:
            return ()
        # A seat that resigned did not play its game out: its total is no game total.
        gone = self._game.resigned
        return tuple(seat for seat in self.humans if seat not in self._hall_asked and seat not in gone)

    def answer_hall(self, seat: int, name: str | None) -> HallOutcome:
        """``seat``'s answer to the Hall of Fame prompt: a name enters the total, ``None`` declines.

        A person asked while the total qualified may answer after other games filled the list:
        the answer is then told that it no longer makes it. The others still waiting are checked
        again afterwards: whoever no longer qualifies is not asked, and told why.
        """
        game = self._game
        if seat not in self._unasked():
            raise IllegalAction(self._why_not_asked(seat))
        if name is not None:
            try:
                name = check_name(name)
            except IllegalAction as error:
                raise BadName(str(error)) from None
        waiting = self.hall_prompts()
        entry = self.keeper.answer_hall(game, seat, name)
        self._hall_asked = self._hall_asked | {seat}
        told: list[str] = []
        if entry is not None:
            told.append(narration.hall_entered(entry.name, entry.rank, entry.total))
        elif name is not None:
            told.append(narration.hall_missed(game.names[seat], game.total(seat)))
        still = self.hall_prompts()
        dropped = tuple(other for other in waiting if other != seat and other not in still)
        if dropped:
            self.keeper.mark_hall_asked(dropped)
            self._hall_asked = self._hall_asked | set(dropped)
            by = entry.name if entry is not None else None
            told += [narration.hall_pushed_out(game.names[other], game.total(other), by) for other in dropped]
        return HallOutcome(seat, entry, dropped, tuple(told))


# --- local play: the terminal and plain text ------------------------------------------------


def local_session(
    storage: Storage, setup: Setup, *, computer: Players | None = None, rng: DiceSource | None = None
) -> Session:
    """A new game of this machine's players, saved at its first change; a failed save is told once."""
    return Session.new(setup, computer=computer, rng=rng, keeper=StoreKeeper(storage))


def resume(
    storage: Storage, saved_id: int, *, computer: Players | None = None, rng: DiceSource | None = None
) -> Session:
    """An unfinished saved game, ready to play on; raises ``SavedGameError``."""
    saved, game = storage.games.load(saved_id, rng)
    seats = [Seat(name, level) for name, level in zip(saved.names, seat_levels(saved), strict=True)]
    return Session(
        game,
        seats,
        computer=computer,
        keeper=StoreKeeper(storage, saved),
        assisted=saved.assisted,
        hall_asked=saved.hall_asked,
    )


def seat_levels(saved: SavedGame) -> list[Level | None]:
    """Each seat's computer level, ``None`` for a person."""
    return [None if level is None else Level.parse(level) for level in saved.levels]
