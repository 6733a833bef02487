"""Each advised option's chance of a Hall of Fame total: the total that would make the list now.

Advice ranks the options by expected total; beside each this adds its chance of ending with at
least the Hall of Fame's bar (one more than its tenth entry), and marks the option with the best
chance ("best for the Hall of Fame") beside the best expected one. The chances are exact, of two
kinds:

- Where the target computer's futures are stored on this machine (the chances of every position,
  worked out once in under a minute: :mod:`kismet_dice.strategy.stored_futures`), playing *for* the bar:
  the target player's own plan for this turn, which maximises the chance, and perfect play after
  it (:func:`~kismet_dice.strategy.chances.target_options`). Quick from any sheet.
- Otherwise, perfect play (the hard player, which maximises the expected total) from that choice
  on (:class:`~kismet_dice.strategy.chances.Continuations`): a moment when at most
  :data:`~kismet_dice.strategy.chances.EXACT_OPEN_BOXES` boxes are open and far longer before, so
  earlier advice says when the chances will show. Advice then also says how to get the first
  kind (a ``tip``): the futures are not worked out for advice unasked, since that takes half a minute of
  every core and gigabytes of memory, while the advice is already there.

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
from kismet_dice.strategy import Advisor, Computer, Option
from kismet_dice.strategy.chances import EXACT_OPEN_BOXES, Continuations, target_options
from kismet_dice.strategy.distribution import Futures
from kismet_dice.strategy.solver import Progress
from kismet_dice.strategy.target import TargetTurns

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
    once worked out; ``playing_for`` whether they are those of playing this turn for the bar (the
    target computer's plan) rather than for the expected total; ``tip`` a line saying how to get
    chances from any sheet, playing for the bar (where the futures they need are missing).
    """

    options: tuple[Option, ...]
    sheet: Sheet
    dice: Dice
    rolls_left: int
    target: int | None = None
    note: str | None = None
    chances: tuple[float, ...] | None = None
    playing_for: bool = False
    tip: str | None = None

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
        if self.target is None:
            return None
        return (
            narration.hall_chances_playing_for(self.target)
            if self.playing_for
            else narration.hall_chances(self.target)
        )

    @property
    def best_for_hall(self) -> int | None:
        """The rank of the option with the best chance (on a tie the first, so the best expected of
        them: the target computer's choice); ``None`` without chances.

        >>> from kismet_dice.rules import Box
        >>> options = tuple(Option(None, box, 300.0 - box.value) for box in (Box.ONES, Box.TWOS, Box.THREES))
        >>> advice = HallAdvice(options, Sheet(), (1, 2, 3, 4, 5), 0, target=310, chances=(0.1, 0.3, 0.3))
        >>> advice.best_for_hall
        1
        """
        if not self.chances:
            return None
        best = max(self.chances)
        return self.chances.index(best)

    def shown(self, first: int) -> tuple[int, ...]:
        """The ranks of the options to show where only the first ``first`` fit: those, and the
        best for the Hall of Fame wherever it ranks.

        >>> from kismet_dice.rules import Box
        >>> options = tuple(Option(None, box, 300.0 - box.value) for box in (Box.ONES, Box.TWOS, Box.THREES))
        >>> HallAdvice(options, Sheet(), (1, 2, 3, 4, 5), 0, target=310, chances=(0.1, 0.2, 0.3)).shown(2)
        (0, 1, 2)
        """
        ranks = tuple(range(min(first, len(self.options))))
        best = self.best_for_hall
        return ranks if best is None or best in ranks else (*ranks, best)

    @property
    def line(self) -> str | None:
        """The line to show under the advice now: "working out the chances" while they are pending."""
        return narration.WORKING_OUT_CHANCES if self.pending else self.about

    def chance(self, rank: int) -> float | None:
        """The chance of option ``rank`` (0 is the best), or ``None`` where none was worked out."""
        return None if self.chances is None else self.chances[rank]


class HallChances:
    """Works out and remembers the chances of advised options; shared by every table of a process.

    ``computer`` gives the target computer's stored futures where there are any
    (:meth:`Computer.stored_futures`): then every option's chance is that of playing for the bar,
    from any sheet; without them (or without a computer) the hard player's chances, late in a game.

    Thread-safe: one pass at a time (each holds the distributions of a sheet's futures, tens of
    megabytes), while remembered answers are read at once. ``memory`` is how many sheets' passes
    are kept.
    """

    def __init__(self, computer: Computer | None = None, *, memory: int = 4) -> None:
        self._computer = computer
        self._memory = memory
        self._lock = threading.Lock()  # the two memories
        self._working = threading.Lock()  # one pass at a time
        self._passes: OrderedDict[SheetKey, Continuations] = OrderedDict()
        self._answers: OrderedDict[Hashable, dict[OptionKey, float]] = OrderedDict()
        self._turns: TargetTurns | None = None  # the target player's, for the last bar asked

    def futures(self) -> Futures | None:
        """The stored futures of every position, if this machine has them (loaded in an instant)."""
        return None if self._computer is None else self._computer.stored_futures()

    @property
    def limit(self) -> int | None:
        """The most open boxes for which chances are worked out; ``None`` for every sheet."""
        return None if self.futures() is not None else EXACT_OPEN_BOXES

    def feasible(self, sheet: Sheet) -> bool:
        """Whether the chances from ``sheet`` are quick enough to work out during a game."""
        limit = self.limit
        return limit is None or len(sheet.open_boxes) <= limit

    def tip(self) -> str | None:
        """How to get chances from any sheet, playing for the bar; ``None`` once they are here."""
        computer = self._computer
        if computer is None or self.futures() is not None:
            return None
        return (
            narration.HALL_FUTURES_BUILDING if computer.futures_building else narration.HALL_FUTURES_MISSING
        )

    def plan(self, advice: HallAdvice) -> HallAdvice:
        """``advice`` (its ``target`` set) with the kind of chances it gets, with the line said instead
        of chances too early in the game, or with the chances if they are remembered; else still
        pending."""
        target = advice.target
        if target is None or advice.note is not None:
            return advice
        if self.futures() is not None:
            advice = replace(advice, playing_for=True, tip=None)
        else:
            advice = replace(advice, playing_for=False, tip=self.tip())
            if not self.feasible(advice.sheet):
                note = narration.hall_chances_later(target, len(advice.sheet.open_boxes), EXACT_OPEN_BOXES)
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
        target = advice.target
        assert target is not None
        question = self._question(advice)
        with self._working:
            with self._lock:
                known = self._answers.get(question)
            if known is None:
                futures = self.futures() if advice.playing_for else None
                if futures is not None:
                    turns = self._target_turns(futures, advisor, target)
                    ranked = target_options(turns, advice.sheet, advice.dice, advice.rolls_left, advisor)
                else:
                    advice = replace(advice, playing_for=False)
                    question = self._question(advice)
                    continuations = self._continuations(advice.sheet, advisor, progress)
                    ranked = continuations.options(advice.dice, advice.rolls_left, target, advisor)
                known = {option_key(found.option): found.chance for found in ranked}
                with self._lock:
                    self._answers[question] = known
                    while len(self._answers) > 16 * self._memory:
                        self._answers.popitem(last=False)
        return self._answered(advice, known)

    def _target_turns(self, futures: Futures, advisor: Advisor, target: int) -> TargetTurns:
        turns = self._turns
        if (
            turns is None
            or turns.target != target
            or turns.futures is not futures
            or turns.table is not advisor.table
        ):
            turns = self._turns = TargetTurns(futures, advisor.table, target)
        return turns

    def _continuations(self, sheet: Sheet, advisor: Advisor, progress: Progress | None) -> Continuations:
        key = sheet_key(sheet)
        with self._lock:
            found = self._passes.get(key)
            if found is not None:
                self._passes.move_to_end(key)
                return found
        made = Continuations(advisor.table, sheet, progress)
        with self._lock:
            self._passes[key] = made
            while len(self._passes) > self._memory:
                self._passes.popitem(last=False)
        return made

    @staticmethod
    def _question(advice: HallAdvice) -> Hashable:
        return (
            sheet_key(advice.sheet),
            tuple(sorted(advice.dice)),
            advice.rolls_left,
            advice.target,
            advice.playing_for,
        )

    @staticmethod
    def _answered(advice: HallAdvice, known: dict[OptionKey, float]) -> HallAdvice:
        return replace(advice, chances=tuple(known[option_key(option)] for option in advice.options))
