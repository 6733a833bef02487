"""The chance that perfect play from a position ends with at least a given total.

From a turn-start position (a sheet) the final total is the points on the sheet plus the
points still to come, whose distribution under the hard player is exact from a forward pass
over the positions the sheet can lead to (:func:`kismet_dice.strategy.distribution.forward`):
seconds from an empty sheet, less the later the sheet. The empty sheet uses the stored
distribution. A chance can also be found by playing the hard player on from the sheet, as many
games as it takes for a 95% interval narrower than half a percentage point (``exact=False``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kismet_dice.rules import BASIC_BOXES, Box, IllegalAction, Sheet, check_dice, score
from kismet_dice.strategy import kernel
from kismet_dice.strategy.advisor import Advisor, Option, position_key, raw_points
from kismet_dice.strategy.dice_space import FloatArray
from kismet_dice.strategy.distribution import (
    Futures,
    TurnShape,
    forward,
    future_pass,
    load_or_compute,
)
from kismet_dice.strategy.simulate import run
from kismet_dice.strategy.solver import Progress
from kismet_dice.strategy.table import StrategyTable
from kismet_dice.strategy.target import TargetTurns

EXACT_OPEN_BOXES = 8
"""The most open boxes for which a turn's options get their exact chances without the stored
futures (:class:`Continuations`): a pass backwards over every position the sheet can lead to,
which from earlier sheets holds gigabytes."""

INTERVAL_WIDTH = 0.005
"""The widest 95% interval a simulated chance may have (half a percentage point)."""

SIMULATED_BATCH = 20_000
"""Games played between two looks at the interval."""

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Chance:
    """``chance`` = P(final total >= ``target``) under perfect play; ``expected`` its mean total.

    ``exact`` is False for a simulated chance, which then has a 95% ``interval`` (Wilson).
    """

    target: int
    chance: float
    expected: float
    exact: bool
    interval: tuple[float, float] | None = None
    games: int = 0

    def to_json(self) -> dict[str, object]:
        """``{"target": T, "chance": p, "expected": e, "exact": true, "interval": null}``.

        >>> Chance(300, 0.5, 315.2, True).to_json()["interval"] is None
        True
        """
        return {
            "target": self.target,
            "chance": self.chance,
            "expected": self.expected,
            "exact": self.exact,
            "interval": list(self.interval) if self.interval is not None else None,
        }


def wilson(successes: int, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion.

    >>> low, high = wilson(50, 100)
    >>> round(low, 4), round(high, 4)
    (0.4038, 0.5962)
    """
    p = successes / games
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def chance(
    table: StrategyTable,
    sheet: Sheet,
    target: int,
    *,
    exact: bool | None = None,
    progress: Progress | None = None,
    seed: int | None = None,
) -> Chance:
    """The chance that perfect play from ``sheet`` (at the start of a turn) ends with ``target`` or more.

    ``exact=False`` plays hard games instead of the exact forward pass. ``progress`` gets
    (done, all) in positions or games.
    """
    advisor_check(table, sheet)
    mask, total = position_key(sheet, table.rules.cap)
    points = raw_points(sheet)
    expected = points + float(table.values[mask, total])
    if sheet.is_full:
        return Chance(target, float(sheet.total >= target), float(sheet.total), True)
    if mask == 0 and exact is not False:
        distribution = load_or_compute(table, progress=progress)
        return Chance(target, distribution.at_least(target), expected, True)
    if exact is False:
        return simulated(table, sheet, target, expected, progress=progress, seed=seed)
    distribution = forward(table, (mask, total, points), progress=progress)
    return Chance(target, distribution.at_least(target), expected, True)


def simulated(
    table: StrategyTable,
    sheet: Sheet,
    target: int,
    expected: float,
    *,
    progress: Progress | None = None,
    seed: int | None = None,
) -> Chance:
    """The chance from hard games played on from ``sheet``, until the 95% interval is narrow enough."""
    start = tuple(sheet[box] for box in Box)
    sequence = np.random.SeedSequence(seed)
    successes = games = 0
    # The worst case (a chance near one half) needs about 154,000 games; the bar shows that.
    planned = math.ceil((2 * Z95 / INTERVAL_WIDTH) ** 2 / 4)
    while True:
        child = int(sequence.spawn(1)[0].generate_state(1)[0])
        done_before = games

        def report(done: int, before: int = done_before) -> None:
            if progress is not None:
                progress(before + done, max(planned, before + done))

        # In this process: workers started for each batch would pay their start (some 0.8 s) every
        # time, at best what two cores save on a batch from an empty sheet (and on the 2-core machine
        # the workers were slower: see simulate.HARD_GAMES_AT_HOME).
        played = run(
            "hard", SIMULATED_BATCH, seed=child, table=table, start=start, progress=report, processes=1
        )
        successes += int((played.totals >= target).sum())
        games += len(played.totals)
        low, high = wilson(successes, games)
        if high - low < INTERVAL_WIDTH:
            return Chance(target, successes / games, expected, False, (low, high), games)


def advisor_check(table: StrategyTable, sheet: Sheet) -> None:
    Advisor(table, memory=1).check_sheet(sheet)


# --- each option's chance -----------------------------------------------------------------


@dataclass(frozen=True)
class TargetOption:
    """An option of the current turn with its expected total and its chance of reaching the target."""

    option: Option
    chance: float

    def to_json(self) -> dict[str, object]:
        return {**self.option.to_json(), "chance": self.chance}


class Continuations:
    """The exact chances of every option of a turn, for one sheet: the hard player from the next turn
    on (``hard_within`` also within the rest of this turn, else the best for the chance).

    ``futures`` are distributions already computed that cover the positions after this turn (all
    layers, say, computed once for every sheet); without them the pass from ``sheet`` is made here.
    """

    def __init__(
        self,
        table: StrategyTable,
        sheet: Sheet,
        progress: Progress | None = None,
        *,
        futures: Futures | None = None,
    ) -> None:
        self.table = table
        self.rules = table.rules
        self.sheet = sheet
        self.shape = TurnShape.of(self.rules)
        self.mask, self.total = position_key(sheet, self.rules.cap)
        self.points = raw_points(sheet)
        self.futures: Futures = (
            futures
            if futures is not None
            else future_pass(table, (self.mask, self.total), progress=progress, keep=1)
        )

    def ending_chances(self, target: int) -> FloatArray:
        """``out[b, r]``: the chance of ``target`` after entering roll r in box b (0 if b is filled)."""
        rules = self.rules
        boxes = len(rules.boxes)
        result = np.zeros((boxes, len(rules.space.rolls)))
        for box in range(boxes):
            bit = 1 << box
            if self.mask & bit:
                continue
            got = self.shape.points[box]
            after = (
                np.minimum(self.total + got, rules.cap)
                if self.shape.basic[box]
                else np.full_like(got, self.total)
            )
            masks = np.full_like(got, self.mask | bit)
            result[box] = self.futures.at_least(masks, after, target - self.points - got)
        return result

    def options(
        self, dice: Sequence[int], rolls_left: int, target: int, advisor: Advisor
    ) -> tuple[TargetOption, ...]:
        """The advisor's options (its order: best expected first), each with its chance of ``target``.

        A box's chance is from the next turn-start position; a keep's is the average over the
        rolls it can lead to, the rest of the turn played as the hard player plays it.
        """
        faces = check_dice(dice)
        ranked = advisor.options(self.sheet, faces, rolls_left)
        endings = self.ending_chances(target)
        space = self.rules.space
        roll = space.roll_index[tuple(sorted(faces))]
        keeps = [option.keep for option in ranked if option.box is None]
        keep_chances: dict[tuple[int, ...], float] = {}
        if keeps:
            flat = [self.rules.space.flat_keep(keep or ()) for keep in keeps]
            start = self.shape.reroll[flat].T  # (rolls, keeps)
            columns = len(keeps)
            masks = np.full(columns, self.mask, dtype=np.intp)
            totals = np.full(columns, self.total, dtype=np.intp)
            tables = kernel.tables_of(self.rules)
            ends = kernel.endings(tables, self.table.values, masks, totals, start, rolls_left - 1)
            # An ending's chance of the target depends only on its box and points: one per pair.
            by_pair = np.zeros(len(tables.pair_box))
            by_pair[tables.pair_of] = endings
            found = by_pair @ ends
            keep_chances = {keep or (): float(value) for keep, value in zip(keeps, found, strict=True)}
        result = []
        for option in ranked:
            if option.box is not None:
                value = float(endings[option.box.value - 1, roll])
            else:
                value = keep_chances[option.keep or ()]
            result.append(TargetOption(option, min(value, 1.0)))
        return tuple(result)


def target_options(
    turns: TargetTurns, sheet: Sheet, dice: Sequence[int], rolls_left: int, advisor: Advisor
) -> tuple[TargetOption, ...]:
    """The advisor's options (its order: best expected first), each with its chance of ``turns.target``
    when this turn is played for it: the target player's own plan (:mod:`kismet_dice.strategy.target`),
    the hard player from the next turn on. ``turns`` must hold the futures of every layer the sheet
    can reach (the stored ones cover every sheet), and then every sheet is quick.

    A box's chance is the same as :class:`Continuations` gives; a keep's is at least as high, since
    the rest of the turn is played for the target rather than for the expected total.
    """
    faces = check_dice(dice)
    ranked = advisor.options(sheet, faces, rolls_left)
    rules = turns.rules
    mask, total = position_key(sheet, rules.cap)
    plan = turns.turn(
        np.array([mask], dtype=np.intp), np.array([total], dtype=np.intp), np.array([raw_points(sheet)])
    )
    roll = rules.space.roll_index[tuple(sorted(faces))]
    result = []
    for option in ranked:
        if option.box is not None:
            value = plan.box_chance(option.box.value - 1, roll)
        else:
            value = plan.keep_chance(rules.space.flat_keep(option.keep or ()), rolls_left)
        result.append(TargetOption(option, min(value, 1.0)))
    return tuple(result)


def box_chance(continuations: Continuations, box: Box, dice: Sequence[int], target: int) -> float:
    """The chance of ``target`` after entering ``dice`` in ``box`` (the hard player on from there)."""
    points = score(box, dice)
    rules = continuations.rules
    after = min(continuations.total + points, rules.cap) if box in BASIC_BOXES else continuations.total
    if continuations.sheet[box] is not None:
        raise IllegalAction(f"{box.label} is already filled")
    found = continuations.futures.at_least(
        np.array([continuations.mask | 1 << (box.value - 1)]),
        np.array([after]),
        np.array([target - continuations.points - points]),
    )
    return float(found[0])
