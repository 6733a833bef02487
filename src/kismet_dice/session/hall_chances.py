"""Each advised option's chance of a Hall of Fame total: the total that would make the list now.

Advice ranks the options by expected total; beside each this adds the chance that perfect play
(the hard player) from that choice on ends with at least the Hall of Fame's bar (one more than
its tenth entry). The chances are exact, from the distributions of the points still to come
(:class:`~kismet_dice.strategy.chances.Continuations`). Working those out from a sheet takes a
moment when at most :data:`~kismet_dice.strategy.chances.EXACT_OPEN_BOXES` boxes are open and
far longer before, so earlier advice says when the chances will show instead. Given
distributions that cover every sheet (``futures``), every position is quick.

The interfaces ask in two steps: :meth:`Session.hall_advice
<kismet_dice.session.table.Session.hall_advice>` at once (the bar, a cached answer, or the line
said instead of chances), then :meth:`HallChances.work_out` off their event loop when
:attr:`HallAdvice.pending`. Answers are remembered per sheet and bar, so asking again in the
same turn is instant.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, replace

from kismet_dice.rules import Box, Dice, Sheet
from kismet_dice.session import narration
from kismet_dice.strategy import Advisor, Option
from kismet_dice.strategy.chances import EXACT_OPEN_BOXES, Continuations
from kismet_dice.strategy.distribution import Futures
from kismet_dice.strategy.solver import Progress

SheetKey = tuple[int | None, ...]
OptionKey = tuple[tuple[int, ...] | None, Box | None]


def sheet_key(sheet: Sheet) -> SheetKey:
    return tuple(sheet[box] for box in Box)


def option_key(option: Option) -> OptionKey:
    """An option without its expected total: what it does (keep these dice, or fill this box)."""
    return (None if option.keep is None else tuple(option.keep), option.box)


@dataclass(frozen=True)
class HallAdvice:
    """What a piece of advice says of the Hall of Fame, beside each option's expected total.

    ``options`` are the advice's, best first; ``target`` the lowest total that would make the
    Hall of Fame now (``None`` while any total would, or where there is no Hall of Fame);
    ``note`` the one line said instead of chances (fewer than ten entries, or too early in the
    game); ``chances`` each option's chance of ``target`` or more, in the order of ``options``,
    once worked out.
    """

    options: tuple[Option, ...]
    sheet: Sheet
    dice: Dice
    rolls_left: int
    target: int | None = None
    note: str | None = None
    chances: tuple[float, ...] | None = None

    @property
    def pending(self) -> bool:
        """Whether the chances are still to be worked out (:meth:`HallChances.work_out`)."""
        return self.target is not None and self.note is None and self.chances is None

    @property
    def heading(self) -> str | None:
        """The heading of the column of chances, e.g. "Hall of Fame total (312+)"; ``None`` without one."""
        return None if self.target is None or self.note is not None else narration.hall_column(self.target)

    @property
    def about(self) -> str | None:
        """The line under the advice: what the chances are, or why there are none."""
        if self.note is not None:
            return self.note
        return None if self.target is None else narration.hall_chances(self.target)

    @property
    def line(self) -> str | None:
        """The line to show under the advice now: "working out the chances" while they are pending."""
        return narration.WORKING_OUT_CHANCES if self.pending else self.about

    def chance(self, rank: int) -> float | None:
        """The chance of option ``rank`` (0 is the best), or ``None`` where none was worked out."""
        return None if self.chances is None else self.chances[rank]


class HallChances:
    """Works out and remembers the chances of advised options; shared by every table of a process.

    Thread-safe: one pass at a time (each holds the distributions of a sheet's futures, tens of
    megabytes), while remembered answers are read at once. ``memory`` is how many sheets' passes
    are kept.
    """

    def __init__(self, futures: Futures | None = None, *, memory: int = 4) -> None:
        self._futures = futures
        self._memory = memory
        self._lock = threading.Lock()  # the two memories
        self._working = threading.Lock()  # one pass at a time
        self._passes: OrderedDict[SheetKey, Continuations] = OrderedDict()
        self._answers: OrderedDict[Hashable, dict[OptionKey, float]] = OrderedDict()

    @property
    def limit(self) -> int | None:
        """The most open boxes for which chances are worked out; ``None`` for every sheet."""
        return None if self._futures is not None else EXACT_OPEN_BOXES

    def feasible(self, sheet: Sheet) -> bool:
        """Whether the chances from ``sheet`` are quick enough to work out during a game."""
        limit = self.limit
        return limit is None or len(sheet.open_boxes) <= limit

    def plan(self, advice: HallAdvice) -> HallAdvice:
        """``advice`` (its ``target`` set) with the line said instead of chances too early in the
        game, or with the chances if they are remembered; else still pending."""
        if advice.target is None or advice.note is not None:
            return advice
        limit = self.limit
        if limit is not None and not self.feasible(advice.sheet):
            note = narration.hall_chances_later(advice.target, len(advice.sheet.open_boxes), limit)
            return replace(advice, note=note)
        with self._lock:
            known = self._answers.get(self._question(advice))
        return advice if known is None else self._answered(advice, known)

    def work_out(self, advice: HallAdvice, advisor: Advisor, progress: Progress | None = None) -> HallAdvice:
        """``advice`` with its chances: a pass over the sheet's futures the first time (seconds at
        most; call it off an event loop), at once after that. Nothing to do unless pending."""
        advice = self.plan(advice)
        if not advice.pending:
            return advice
        assert advice.target is not None
        question = self._question(advice)
        with self._working:
            with self._lock:
                known = self._answers.get(question)
            if known is None:
                continuations = self._continuations(advice.sheet, advisor, progress)
                ranked = continuations.options(advice.dice, advice.rolls_left, advice.target, advisor)
                known = {option_key(found.option): found.chance for found in ranked}
                with self._lock:
                    self._answers[question] = known
                    while len(self._answers) > 16 * self._memory:
                        self._answers.popitem(last=False)
        return self._answered(advice, known)

    def _continuations(self, sheet: Sheet, advisor: Advisor, progress: Progress | None) -> Continuations:
        key = sheet_key(sheet)
        with self._lock:
            found = self._passes.get(key)
            if found is not None:
                self._passes.move_to_end(key)
                return found
        made = Continuations(advisor.table, sheet, progress, futures=self._futures)
        with self._lock:
            self._passes[key] = made
            while len(self._passes) > self._memory:
                self._passes.popitem(last=False)
        return made

    @staticmethod
    def _question(advice: HallAdvice) -> Hashable:
        return (sheet_key(advice.sheet), tuple(sorted(advice.dice)), advice.rolls_left, advice.target)

    @staticmethod
    def _answered(advice: HallAdvice, known: dict[OptionKey, float]) -> HallAdvice:
        return replace(advice, chances=tuple(known[option_key(option)] for option in advice.options))
