"""Every option of a Kismet position, ranked by the expected final game total.

A position is a sheet (the filled boxes and their points), the dice and the rolls left.
An option is a box to fill now or, with a roll left, the dice to keep before rolling again.
Its value is the points on the sheet plus the optimal expectation from there on, bonus
included, so the best option's value is what perfect play expects to finish with.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kismet_dice.game import ROLLS_PER_TURN, Game
from kismet_dice.rules import BASIC_BOXES, Box, IllegalAction, Sheet, check_dice, score
from kismet_dice.strategy import kernel
from kismet_dice.strategy.dice_space import IntArray, Multiset
from kismet_dice.strategy.ruleset import RuleSet
from kismet_dice.strategy.table import StrategyTable


@dataclass(frozen=True)
class Option:
    """Keep ``keep`` (dice values, ascending) and roll the rest, or fill ``box``; exactly one is set.

    ``expected`` is the expected final game total after choosing it and playing perfectly on.
    """

    expected: float
    keep: Multiset | None = None
    box: Box | None = None

    def to_json(self) -> dict[str, object]:
        """``{"keep": [...], "expected": x}`` or ``{"box": "NAME", "expected": x}``.

        >>> Option(301.5, box=Box.STRAIGHT).to_json()
        {'box': 'STRAIGHT', 'expected': 301.5}
        """
        if self.box is not None:
            return {"box": self.box.name, "expected": self.expected}
        return {"keep": list(self.keep or ()), "expected": self.expected}


def position_key(sheet: Sheet, cap: int) -> tuple[int, int]:
    """The solver's view of a sheet: (mask of filled boxes, Basic total capped at ``cap``)."""
    mask = sum(1 << (box.value - 1) for box in Box if sheet[box] is not None)
    return mask, min(sheet.basic_total, cap)


def raw_points(sheet: Sheet) -> int:
    """Points entered so far, without the bonus (the table's values include the bonus still due)."""
    return sheet.basic_total + sheet.kismet_total


class Advisor:
    """Ranks the options of Kismet positions with a solved table; remembers recent turns.

    >>> from kismet_dice.strategy.ruleset import kismet_rules
    >>> from kismet_dice.strategy.table import StrategyTable
    >>> import numpy as np
    >>> rules = kismet_rules()
    >>> values = np.zeros((1 << 15, rules.cap + 1))  # a world where nothing matters later
    >>> advisor = Advisor(StrategyTable(rules, values))
    >>> sheet = Sheet(tuple([0] * 14 + [None]))  # only Kismet open
    >>> advisor.options(sheet, (6, 6, 6, 6, 6), 0)[0]
    Option(expected=80.0, keep=None, box=<Box.KISMET: 15>)
    """

    def __init__(self, table: StrategyTable, memory: int = 4096) -> None:
        if table.rules.name != "kismet" or len(table.rules.boxes) != len(Box):
            raise ValueError("the advisor needs the Kismet table")
        self.table = table
        self.rules: RuleSet = table.rules
        self._tables = kernel.tables_of(self.rules)
        self._turns: OrderedDict[tuple[int, int], kernel.Turn] = OrderedDict()
        self._lock = threading.Lock()
        self._memory = memory
        self._possible = {
            box: frozenset(rule.points) for box, rule in zip(Box, self.rules.boxes, strict=True)
        }

    def check_sheet(self, sheet: Sheet) -> None:
        """Refuse entries that no roll can score in their box (no game reaches such a position).

        A zero is always possible: a second Kismet can put one in any box, even Yarborough.
        """
        for box in Box:
            entry = sheet[box]
            if entry is not None and entry != 0 and entry not in self._possible[box]:
                raise IllegalAction(f"{box.label} cannot hold {entry}: no roll scores that there")

    def turn(self, mask: int, total: int) -> kernel.Turn:
        """All values of a turn from the position ``(mask, total)``."""
        key = (mask, total)
        # Interfaces ask from worker threads too (proficiency at the end of a game): the
        # memory of recent turns is shared, so it is only touched under the lock.
        with self._lock:
            found = self._turns.get(key)
            if found is not None:
                self._turns.move_to_end(key)
                return found
        masks: IntArray = np.array([mask], dtype=np.intp)
        totals: IntArray = np.array([total], dtype=np.intp)
        computed = kernel.turn(self._tables, self.table.values, masks, totals)
        with self._lock:
            self._turns[key] = computed
            if len(self._turns) > self._memory:
                self._turns.popitem(last=False)
        return computed

    def start_value(self, sheet: Sheet) -> float:
        """Expected final total of perfect play from the start of a turn (or the total, if full)."""
        self.check_sheet(sheet)
        mask, total = position_key(sheet, self.rules.cap)
        return raw_points(sheet) + float(self.table.values[mask, total])

    def box_value(self, sheet: Sheet, box: Box, dice: Sequence[int]) -> float:
        """Expected points to come (bonus included) after entering ``dice`` in ``box``."""
        mask, total = position_key(sheet, self.rules.cap)
        points = score(box, dice)
        after = min(total + points, self.rules.cap) if box in BASIC_BOXES else total
        return float(points + self.table.values[mask | 1 << (box.value - 1), after])

    def options(self, sheet: Sheet, dice: Sequence[int], rolls_left: int) -> tuple[Option, ...]:
        """Every option, best first; on equal values boxes (top first) come before keeps.

        Raises :class:`IllegalAction` for a full sheet, bad dice, rolls left outside 0-2, or an
        entry no roll can score.
        """
        faces = check_dice(dice)
        self.check_sheet(sheet)
        if sheet.is_full:
            raise IllegalAction("the sheet is full: the game is over")
        if isinstance(rolls_left, bool) or rolls_left not in range(ROLLS_PER_TURN):
            raise IllegalAction(f"after a roll 0 to {ROLLS_PER_TURN - 1} rolls are left, not {rolls_left!r}")
        raw = raw_points(sheet)
        future: list[tuple[float, Option]] = [
            (value, Option(raw + value, box=box))
            for box in sheet.open_boxes
            for value in (self.box_value(sheet, box, faces),)
        ]
        if rolls_left:
            mask, total = position_key(sheet, self.rules.cap)
            keeps = self.turn(mask, total).keeps[rolls_left]
            for keep in self.rules.space.sub_multisets(faces):
                value = float(keeps[self.rules.space.flat_keep(keep), 0])
                future.append((value, Option(raw + value, keep=keep)))
        order = sorted(range(len(future)), key=lambda i: -future[i][0])
        return tuple(future[i][1] for i in order)

    def best(self, sheet: Sheet, dice: Sequence[int], rolls_left: int) -> Option:
        return self.options(sheet, dice, rolls_left)[0]

    def game_options(self, game: Game, seat: int | None = None) -> tuple[Option, ...]:
        """The options of a live game's current turn, for the player in ``seat`` (default: current).

        In a game of several players each sheet is judged as a game of its own. Empty before the
        turn's first roll (rolling all five is then the only move) and once the game is over.
        """
        player = game.current_player if seat is None else seat
        if player is None or player != game.current_player or not game.dice:
            return ()
        return self.options(game.sheet(player), game.dice, game.rolls_left)
