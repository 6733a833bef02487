"""The game engine: players, turns, rounds, the second Kismet, and the game's history.

A game is state, legal actions and ``apply``. Chance is explicit: every die is one
``rng.randint(1, 6)`` call on the injected generator, so tests can script every die.
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Iterable, Sequence
from copy import copy as shallow_copy

from kismet_dice.game.dice_source import DiceSource, ScriptedDice, ScriptExhausted
from kismet_dice.game.events import (
    Action,
    Event,
    HouseRules,
    Penalty,
    Recorded,
    Resigned,
    Roll,
    Rolled,
    RollOff,
    Score,
    Scored,
    SecondKismet,
)
from kismet_dice.game.record import Record, RecordError, action_json, actions_from_json
from kismet_dice.rules import (
    NUMBER_OF_DICE,
    Box,
    Dice,
    IllegalAction,
    Sheet,
    check_face,
    is_kismet,
    score,
    scores,
)

ROLLS_PER_TURN = 3
MAX_NAME_LENGTH = 24


def check_name(name: object) -> str:
    """A player's name with surrounding space trimmed: 1 to 24 printable characters.

    >>> check_name("  Ann ")
    'Ann'
    """
    if not isinstance(name, str):
        raise IllegalAction(f"a player's name is text, not {name!r}")
    trimmed = name.strip()
    if not trimmed:
        raise IllegalAction("a player's name cannot be empty")
    if len(trimmed) > MAX_NAME_LENGTH:
        raise IllegalAction(f"a player's name has at most {MAX_NAME_LENGTH} characters")
    if any(unicodedata.category(char)[0] == "C" for char in trimmed):
        raise IllegalAction("a player's name cannot hold control characters")
    # Line and paragraph separators and odd spaces would break a one-line sheet or list.
    if any(unicodedata.category(char)[0] == "Z" and char != " " for char in trimmed):
        raise IllegalAction("a player's name can hold only plain spaces between its words")
    return trimmed


class Game:
    """A game of Kismet for one or more players, in seating order.

    >>> from kismet_dice.game import ScriptedDice
    >>> game = Game(["Ann"], rng=ScriptedDice([4, 5, 5, 5, 5, 4]))
    >>> game.roll()
    (5, 5, 5, 5, 4)
    >>> game.score(Box.FOUR_OF_A_KIND)
    49
    >>> game.sheet(0)[Box.FOUR_OF_A_KIND], game.rolls_left
    (49, 3)
    """

    def __init__(
        self,
        names: Sequence[str],
        rng: DiceSource | None = None,
        *,
        house_rules: HouseRules | None = None,
    ) -> None:
        if isinstance(names, str):
            raise IllegalAction("the players are a list of names, not one string")
        players = tuple(check_name(name) for name in names)
        if not players:
            raise IllegalAction("a game needs at least one player")
        if len(set(players)) != len(players):
            raise IllegalAction("two players cannot share a name")
        self._names = players
        self._rng: DiceSource = rng if rng is not None else secrets.SystemRandom()
        self._house_rules = house_rules if house_rules is not None else HouseRules()
        self._sheets = [Sheet() for _ in players]
        self._history: list[Event] = []
        # What to_json wrote last: how many events it covered, the record up to its actions, the actions.
        self._written: tuple[int, str, str] = (0, "", "")
        self._dice: Dice = ()
        self._rolls_left = ROLLS_PER_TURN
        self._round = 1
        self._first_player = self._roll_off()
        self._leader = self._first_player
        self._current: int | None = self._first_player

    def _draw(self) -> int:
        face = self._rng.randint(1, 6)
        try:
            return check_face(face)
        except IllegalAction:
            raise ValueError(f"the dice generator gave {face!r}, which no die shows") from None

    def _roll_off(self) -> int:
        # Everyone rolls one die; those tied for highest roll again among themselves.
        contenders = list(range(len(self._names)))
        while True:
            faces = tuple((seat, self._draw()) for seat in contenders)
            self._history.append(RollOff(faces))
            highest = max(face for _, face in faces)
            contenders = [seat for seat, face in faces if face == highest]
            if len(contenders) == 1:
                return contenders[0]

    # --- read-only state -------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names in seating order."""
        return self._names

    @property
    def house_rules(self) -> HouseRules:
        return self._house_rules

    def has_kismet(self, seat: int) -> bool:
        """Whether five of a kind ending ``seat``'s turn would be a second Kismet: its Kismet box
        holds a Kismet (or a zero, with the house rule that counts one as filled)."""
        return self._has_kismet(self._sheets[self._check_seat(seat)])

    @property
    def first_player(self) -> int:
        """The seat that won the roll-off."""
        return self._first_player

    @property
    def leader(self) -> int:
        """The seat that leads the current round."""
        return self._leader

    @property
    def round(self) -> int:
        """The round being played, from 1."""
        return self._round

    @property
    def current_player(self) -> int | None:
        """The seat whose turn it is; ``None`` once the game is over."""
        return self._current

    @property
    def dice(self) -> Dice:
        """The five dice on the table; empty before the turn's first roll."""
        return self._dice

    @property
    def rolls_left(self) -> int:
        """Rolls left in this turn (0 once the game is over)."""
        return self._rolls_left if self._current is not None else 0

    @property
    def is_over(self) -> bool:
        return self._current is None

    @property
    def history(self) -> tuple[Event, ...]:
        """Every roll-off, roll, entry and second Kismet, in order."""
        return tuple(self._history)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the highest total once the game is over (several on a tie); else empty."""
        if not self.is_over:
            return ()
        best = max(self.total(seat) for seat in range(len(self._names)))
        return tuple(seat for seat in range(len(self._names)) if self.total(seat) == best)

    def sheet(self, seat: int) -> Sheet:
        """The score sheet of ``seat``: a mapping ``Box -> int | None`` (``None`` while open)."""
        return self._sheets[self._check_seat(seat)]

    def total(self, seat: int) -> int:
        """Game total of ``seat`` so far, bonus included once earned."""
        return self.sheet(seat).total

    def options(self) -> dict[Box, int]:
        """What the current dice would score in each open box of the current player, top first."""
        if self._current is None or not self._dice:
            return {}
        sheet = self._sheets[self._current]
        every = scores(self._dice)
        return {box: every[box] for box in sheet.open_boxes}

    @property
    def may_roll(self) -> bool:
        """Whether the current player may roll now: a :class:`Roll` is among :meth:`legal_actions`.

        >>> from kismet_dice.game import ScriptedDice
        >>> game = Game(["Ann"], rng=ScriptedDice([1, 2, 3, 4, 5, 6]))
        >>> game.may_roll, game.may_hold
        (True, False)
        """
        return self._current is not None and (not self._dice or self._rolls_left > 0)

    @property
    def may_hold(self) -> bool:
        """Whether dice may be held for that roll: the dice are on the table and a roll is left."""
        return self._current is not None and bool(self._dice) and self._rolls_left > 0

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the current player may take: the rolls (by held positions), then the boxes."""
        if self._current is None:
            return ()
        if not self._dice:
            return (Roll(),)
        rolls: list[Action] = []
        if self._rolls_left:
            for mask in range(2**NUMBER_OF_DICE - 1):
                rolls.append(Roll(tuple(p for p in range(NUMBER_OF_DICE) if mask >> p & 1)))
        boxes: list[Action] = [Score(box) for box in self._sheets[self._current].open_boxes]
        return (*rolls, *boxes)

    # --- actions -----------------------------------------------------------------------

    @property
    def resigned(self) -> tuple[int, ...]:
        """The seats that resigned, in the order they did."""
        return tuple(event.seat for event in self._history if isinstance(event, Resigned))

    def apply(self, action: Action) -> Dice | int:
        """Take an action: a :class:`Roll` returns the dice, a :class:`Score` the points entered."""
        if isinstance(action, Roll):
            return self.roll(action.hold)
        if isinstance(action, Score):
            return self.score(action.box)
        raise IllegalAction(f"{action!r} is not an action of the game")

    def roll(self, hold: Iterable[int] = ()) -> Dice:
        """Roll every die not held (``hold``: positions 0-4 to keep) and return the five dice."""
        seat = self._require_turn()
        kept = self._check_hold(hold)
        if self._rolls_left == 0:
            raise IllegalAction("no rolls are left this turn: choose a box")
        # Draw every die before changing anything, so a failing generator leaves the game as it was.
        fresh = {position: self._draw() for position in range(NUMBER_OF_DICE) if position not in kept}
        dice = tuple(self._dice[p] if p in kept else fresh[p] for p in range(NUMBER_OF_DICE))
        self._dice = dice
        self._rolls_left -= 1
        self._history.append(Rolled(seat, kept, dice))
        return dice

    def score(self, box: Box | str) -> int:
        """Enter the current dice in ``box`` for the current player, end the turn, return the points."""
        seat = self._require_turn()
        if not self._dice:
            raise IllegalAction("roll the dice before choosing a box")
        chosen = box if isinstance(box, Box) else self._parse_box(box)
        sheet = self._sheets[seat]
        if sheet[chosen] is not None:
            raise IllegalAction(f"{chosen.label} is already filled")
        second_kismet = is_kismet(self._dice) and self._has_kismet(sheet)
        points = score(chosen, self._dice)
        self._sheets[seat] = sheet.with_entry(chosen, points)
        self._history.append(Scored(seat, chosen, points, self._dice))
        if second_kismet:
            self._second_kismet(seat)
        else:
            self._advance(seat)
        return points

    def resign(self, seat: int, *, end: bool = False) -> tuple[Box, ...]:
        """``seat`` leaves the game for good, at any time: each of its open boxes gets a 0 (a filled
        box never changes, and a sheet with every box filled takes no turn), so the game goes on
        for the others; if it was that seat's turn, the next player's begins. With ``end`` the game
        ends here (the table has no person left to play). Returns the boxes that got a 0.

        >>> from kismet_dice.game import ScriptedDice
        >>> game = Game(["Ann", "Bob"], rng=ScriptedDice([6, 2]))
        >>> len(game.resign(0)), game.current_player, game.sheet(0).total
        (15, 1, 0)
        """
        self._require_turn()
        sheet = self._sheets[self._check_seat(seat)]
        zeros = sheet.open_boxes
        if not zeros:
            raise IllegalAction(f"{self._names[seat]} has no open box left to give up")
        for box in zeros:
            sheet = sheet.with_entry(box, 0)
        self._sheets[seat] = sheet
        self._history.append(Resigned(seat, tuple(zeros), end))
        if end:
            self._current = None
            self._dice = ()
            self._rolls_left = 0
        elif seat == self._current:
            self._advance(seat)
        return tuple(zeros)

    # --- the flow of turns and rounds -------------------------------------------------

    def _has_kismet(self, sheet: Sheet) -> bool:
        entry = sheet[Box.KISMET]
        return entry is not None and (entry > 0 or self._house_rules.zero_kismet_counts)

    def _second_kismet(self, seat: int) -> None:
        penalties: list[Penalty] = []
        if len(self._names) > 1:
            for other in range(len(self._names)):
                open_boxes = self._sheets[other].open_boxes
                if other != seat and open_boxes:
                    self._sheets[other] = self._sheets[other].with_entry(open_boxes[0], 0)
                    penalties.append(Penalty(other, open_boxes[0]))
        self._history.append(SecondKismet(seat, tuple(penalties)))
        if len(self._names) > 1:
            # The rest of the round is skipped; the roller leads this and every later round.
            self._leader = seat
            self._start_round(self._round + 1)
        else:
            self._advance(seat)

    def _advance(self, seat: int) -> None:
        """Pass the turn to the next player of this round with an open box, or start the next round."""
        count = len(self._names)
        position = (seat - self._leader) % count
        for later in range(position + 1, count):
            candidate = (self._leader + later) % count
            if self._sheets[candidate].open_boxes:
                self._start_turn(candidate)
                return
        self._start_round(self._round + 1)

    def _start_round(self, number: int) -> None:
        count = len(self._names)
        for offset in range(count):
            candidate = (self._leader + offset) % count
            if self._sheets[candidate].open_boxes:
                self._round = number
                self._start_turn(candidate)
                return
        self._current = None
        self._dice = ()
        self._rolls_left = 0

    def _start_turn(self, seat: int) -> None:
        self._current = seat
        self._dice = ()
        self._rolls_left = ROLLS_PER_TURN

    # --- checks --------------------------------------------------------------------------

    def _require_turn(self) -> int:
        if self._current is None:
            raise IllegalAction("the game is over")
        return self._current

    def _check_seat(self, seat: int) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self._names):
            raise IllegalAction(f"there is no seat {seat!r} in a game of {len(self._names)}")
        return seat

    def _check_hold(self, hold: Iterable[int]) -> tuple[int, ...]:
        if isinstance(hold, (str, bytes)):
            raise IllegalAction(f"hold lists dice positions 0-4, not {hold!r}")
        try:
            positions = list(hold)
        except TypeError:
            raise IllegalAction(f"hold lists dice positions 0-4, not {hold!r}") from None
        for position in positions:
            if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position < 5:
                raise IllegalAction(f"a die's position is 0 to 4, not {position!r}")
        if len(set(positions)) != len(positions):
            raise IllegalAction("each die can be held only once")
        if positions and not self._dice:
            raise IllegalAction("nothing can be held on a turn's first roll")
        if len(positions) == NUMBER_OF_DICE:
            raise IllegalAction("holding all five dice leaves nothing to roll: choose a box")
        return tuple(sorted(positions))

    @staticmethod
    def _parse_box(box: object) -> Box:
        if isinstance(box, str):
            return Box.parse(box)
        raise IllegalAction(f"{box!r} is not a box of the sheet")

    # --- copies and records -----------------------------------------------------------

    def copy(self) -> Game:
        """An independent copy of the game on the same dice source: try an action, keep it or not.

        >>> from kismet_dice.game import ScriptedDice
        >>> game = Game(["Ann"], rng=ScriptedDice([4, 5, 5, 5, 5, 4]))
        >>> trial = game.copy()
        >>> trial.roll()
        (5, 5, 5, 5, 4)
        >>> game.dice, game.rolls_left, len(game.history), len(trial.history)
        ((), 3, 1, 2)
        """
        clone = shallow_copy(self)
        # Sheets, dice and events are immutable values; only the lists holding them are shared.
        clone._sheets = list(self._sheets)
        clone._history = list(self._history)
        return clone

    def record(self) -> Record:
        """The game's record: players, house rules, the roll-off and every roll and entry."""
        return Record(
            players=self._names,
            house_rules=self._house_rules,
            roll_off=tuple(event for event in self._history if isinstance(event, RollOff)),
            actions=tuple(event for event in self._history if isinstance(event, Recorded)),
        )

    def to_json(self) -> str:
        """The game as a JSON record: players, house rules and every die and decision.

        The JSON written so far is kept and only the new actions are encoded: a game is saved
        after every action, and its history only grows (a copy shares what was written, which
        stays true of it). It is the record's own encoding, piece by piece (:meth:`Record.to_json`).
        """
        covered, opening, actions = self._written
        if not opening:
            opening = self.record().opening_json()  # the roll-off is over before the first action
        new = [event for event in self._history[covered:] if isinstance(event, Recorded)]
        if new:
            more = ",".join(map(action_json, new))
            actions = f"{actions},{more}" if actions else more
        self._written = (len(self._history), opening, actions)
        return f"{opening}{actions}]}}"

    @classmethod
    def from_json(cls, text: str | bytes, rng: DiceSource | None = None) -> Game:
        """A game from its JSON record, replayed through the rules; raises :class:`RecordError`.

        ``rng`` rolls the dice from where the record ends (by default a system generator).
        """
        return cls.from_record(Record.from_json(text), rng)

    @classmethod
    def from_record(cls, record: Record, rng: DiceSource | None = None) -> Game:
        """A game replayed from ``record`` through the rules; raises :class:`RecordError` if it fails.

        The game draws the record's dice first, then from ``rng`` (by default a system generator).
        """
        script = ScriptedDice(record.faces(), then=rng if rng is not None else secrets.SystemRandom())
        try:
            game = cls(record.players, rng=script, house_rules=record.house_rules)
            # The roll-off rolls until one player is highest; past the recorded dice it never settled.
            if script.drawn_from_then:
                raise RecordError("the record's roll-off does not settle a first player")
            game._replay(record.actions)
        except RecordError:
            raise
        except IllegalAction as error:
            raise RecordError(f"the record breaks the rules: {error}") from None
        except ScriptExhausted:
            # Only a scripted ``rng`` runs out, and only in an unsettled roll-off: see above.
            raise RecordError("the record's roll-off does not settle a first player") from None
        except ValueError as error:
            raise RecordError(f"the record holds a die that no die shows: {error}") from None
        replayed = tuple(event for event in game._history if isinstance(event, RollOff))
        if replayed != record.roll_off or script.remaining or script.drawn_from_then:
            raise RecordError("the record's roll-off does not match its dice")
        return game

    def continued(self, record: Record, rng: DiceSource | None = None) -> Game:
        """This game carried on to the end of ``record``, which must begin with this game: only
        the actions it lacks are replayed through the rules (a game read again after another
        process added to it costs its new actions, not the whole game). Raises
        :class:`RecordError` if the record does not continue this game; this game is unchanged.

        >>> from kismet_dice.game import ScriptedDice
        >>> game = Game(["Ann"], rng=ScriptedDice([4]))
        >>> ahead = game.copy()
        >>> ahead._rng = ScriptedDice([5, 5, 5, 5, 4])
        >>> _ = ahead.roll(), ahead.score(Box.FOUR_OF_A_KIND)
        >>> caught_up = game.continued(ahead.record())
        >>> caught_up.sheet(0)[Box.FOUR_OF_A_KIND], len(game.history)
        (49, 1)
        """
        own = self.record()
        done = len(own.actions)
        if (
            record.players != own.players
            or record.house_rules != own.house_rules
            or record.roll_off != own.roll_off
            or record.actions[:done] != own.actions
        ):
            raise RecordError("the record does not continue this game")
        return self._carried_on(record.actions[done:], done, rng)

    def continued_json(self, text: str, rng: DiceSource | None = None) -> Game | None:
        """This game carried on to the end of the JSON record ``text``, read from where this game's
        own JSON (:meth:`to_json`) ends: a record that continues a game begins with it, so only the
        actions after it are decoded and replayed (a game read again after another process added
        to it costs its new actions, not its whole record). ``None`` if ``text`` does not begin so
        (another game, or the same written otherwise): :meth:`continued` then compares it whole.
        Raises :class:`RecordError` if the added actions do not follow the rules.

        >>> from kismet_dice.game import ScriptedDice
        >>> game = Game(["Ann"], rng=ScriptedDice([4]))
        >>> ahead = game.copy()
        >>> ahead._rng = ScriptedDice([5, 5, 5, 5, 4])
        >>> _ = ahead.roll(), ahead.score(Box.FOUR_OF_A_KIND)
        >>> game.continued_json(ahead.to_json()).sheet(0)[Box.FOUR_OF_A_KIND]
        49
        >>> game.continued_json(Game(["Bob"], rng=ScriptedDice([4])).to_json()) is None
        True
        """
        own = self.to_json()
        held = own[:-2]  # less the closing "]}"
        if not text.startswith(held) or not text.endswith("]}"):
            return None
        added = text[len(held) : -2]
        done = sum(1 for event in self._history if isinstance(event, Recorded))
        # After an action of its own, what follows it starts with a comma; before any, it cannot.
        if added and (added.startswith(",") != bool(done)):
            return None
        actions = actions_from_json(f"[{added.removeprefix(',')}]", first=done + 1, dice=self._dice)
        game = self._carried_on(actions, done, rng)
        # What it was read from is its JSON so far: its next save encodes only what it adds.
        game._written = (len(game._history), self._written[1], text[len(self._written[1]) : -2])
        return game

    def _carried_on(self, added: Sequence[Recorded], done: int, rng: DiceSource | None) -> Game:
        """A copy of this game with ``added`` replayed, the record's actions from number ``done + 1``."""
        faces = Record(self._names, self._house_rules, (), tuple(added)).faces()
        script = ScriptedDice(faces, then=rng if rng is not None else secrets.SystemRandom())
        game = self.copy()
        game._rng = script
        try:
            game._replay(added, first=done + 1)
        except RecordError:
            raise
        except IllegalAction as error:
            raise RecordError(f"the record breaks the rules: {error}") from None
        except ValueError as error:
            raise RecordError(f"the record holds a die that no die shows: {error}") from None
        if script.remaining or script.drawn_from_then:
            raise RecordError("the record's dice do not match its rolls")
        return game

    def _replay(self, actions: Iterable[Recorded], first: int = 1) -> None:
        for number, action in enumerate(actions, first):
            where = f"action {number}"
            if isinstance(action, Resigned):
                # A player may leave at any time: it need not be their turn.
                if self.resign(action.seat, end=action.ended) != action.zeros:
                    raise RecordError(f"{where}: the boxes given up are not the seat's open ones")
                continue
            if action.seat != self._current:
                raise RecordError(f"{where} is by seat {action.seat}, but it was seat {self._current}'s turn")
            if isinstance(action, Rolled):
                if self.roll(action.hold) != action.dice:
                    raise RecordError(f"{where}: the held dice do not match the dice before the roll")
            else:
                points = self.score(action.box)
                if points != action.points:
                    raise RecordError(
                        f"{where}: {action.box.name} scores {points} with those dice, not {action.points}"
                    )
