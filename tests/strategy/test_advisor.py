"""The advisor against values rebuilt from the table by plain enumeration."""

from __future__ import annotations

import itertools
import random

import pytest

from kismet_dice.game import Game, ScriptedDice
from kismet_dice.rules import BASIC_BOXES, Box, IllegalAction, Sheet, score
from kismet_dice.strategy.advisor import Advisor, Option
from kismet_dice.strategy.table import StrategyTable


@pytest.fixture(scope="module")
def advisor(kismet_table: StrategyTable) -> Advisor:
    return Advisor(kismet_table)


def random_sheet(rng: random.Random, filled: int) -> Sheet:
    """A sheet with ``filled`` boxes holding what some random roll scores there."""
    sheet = Sheet()
    for box in rng.sample(list(Box), filled):
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        sheet = sheet.with_entry(box, score(box, dice))
    return sheet


def value_after_box(table: StrategyTable, sheet: Sheet, box: Box, dice: tuple[int, ...]) -> float:
    """Expected final total after entering ``dice`` in ``box``, straight from the table."""
    after = sheet.with_entry(box, score(box, dice))
    mask = sum(1 << (b.value - 1) for b in Box if after[b] is not None)
    raw = after.basic_total + after.kismet_total
    return raw + float(table.values[mask, min(after.basic_total, table.rules.cap)])


def best_after(
    table: StrategyTable, sheet: Sheet, dice: tuple[int, ...], known: dict[tuple[int, ...], float]
) -> float:
    """The best value after entering ``dice`` in an open box, remembered in ``known`` by the dice's
    multiset (the order of the dice changes nothing)."""
    key = tuple(sorted(dice))
    if key not in known:
        known[key] = max(value_after_box(table, sheet, box, key) for box in sheet.open_boxes)
    return known[key]


def test_starting_a_turn_is_worth_the_tables_value(advisor: Advisor) -> None:
    # Averaging the best option over every ordered first roll gives back the table's value.
    rng = random.Random(4)
    for filled in (0, 5, 11, 14):
        sheet = random_sheet(rng, filled)
        total = 0.0
        best: dict[tuple[int, ...], float] = {}  # by the roll's multiset: every order gives the same
        for dice in itertools.product(range(1, 7), repeat=5):
            key = tuple(sorted(dice))
            if key not in best:
                best[key] = advisor.best(sheet, dice, 2).expected
            total += best[key]
        assert total / 6**5 == pytest.approx(advisor.start_value(sheet), abs=1e-9)


def test_no_option_ranks_above_the_best_with_one_roll_left(
    advisor: Advisor, kismet_table: StrategyTable
) -> None:
    rng = random.Random(9)
    for _ in range(6):
        sheet = random_sheet(rng, rng.randint(0, 14))
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        ranked = advisor.options(sheet, dice, 1)
        boxes = {o.box: o.expected for o in ranked if o.box is not None}
        for box in sheet.open_boxes:
            assert boxes[box] == pytest.approx(value_after_box(kismet_table, sheet, box, dice), abs=1e-9)
        # Keeping a set of dice, by brute force over held positions and every outcome of the rest. The
        # best box for a roll depends only on its dice, not their order: worked out once per roll.
        known: dict[tuple[int, ...], float] = {}
        best_keep = max(
            sum(
                best_after(kismet_table, sheet, (*kept, *rolled), known)
                for rolled in itertools.product(range(1, 7), repeat=5 - len(kept))
            )
            / 6 ** (5 - len(kept))
            for held in itertools.product((True, False), repeat=5)
            if not all(held)
            for kept in [tuple(d for d, h in zip(dice, held, strict=True) if h)]
        )
        assert ranked[0].expected == pytest.approx(max([best_keep, *boxes.values()]), abs=1e-9)
        assert all(o.expected <= ranked[0].expected for o in ranked)
        assert [o.expected for o in ranked] == sorted((o.expected for o in ranked), reverse=True)


def test_bonus_counts_in_the_value_of_the_last_basic_box(advisor: Advisor) -> None:
    # Only Sixes and Kismet open, Basic total 45: 18 in Sixes makes 63 and a 35 bonus.
    sheet = Sheet()
    for box, points in zip(BASIC_BOXES[:5], (3, 6, 9, 12, 15), strict=True):
        sheet = sheet.with_entry(box, points)
    for box in Box:
        if box not in BASIC_BOXES and box is not Box.KISMET:
            sheet = sheet.with_entry(box, 0)
    ranked = {o.box: o.expected for o in advisor.options(sheet, (6, 6, 6, 1, 2), 0)}
    kismet_chance = advisor.start_value(sheet.with_entry(Box.SIXES, 18)) - (45 + 18 + 35)
    assert ranked[Box.SIXES] == pytest.approx(45 + 18 + 35 + kismet_chance, abs=1e-9)


@pytest.mark.parametrize(
    ("dice", "rolls_left", "message"),
    [((1, 2, 3), 0, "five dice"), ((1, 2, 3, 4, 7), 0, "1 to 6"), ((1, 2, 3, 4, 5), 3, "rolls are left")],
)
def test_bad_positions_are_refused(
    advisor: Advisor, dice: tuple[int, ...], rolls_left: int, message: str
) -> None:
    with pytest.raises(IllegalAction, match=message):
        advisor.options(Sheet(), dice, rolls_left)


def test_an_entry_no_roll_can_score_is_refused(advisor: Advisor) -> None:
    with pytest.raises(IllegalAction, match="cannot hold 31"):
        advisor.options(Sheet().with_entry(Box.STRAIGHT, 31), (1, 2, 3, 4, 5), 0)


def test_a_live_games_options_are_the_current_players(advisor: Advisor) -> None:
    game = Game(["Ann", "Bob"], rng=ScriptedDice([6, 1, 2, 2, 2, 2, 2]))
    assert advisor.game_options(game) == ()  # before the first roll
    game.roll()
    options = advisor.game_options(game)
    assert options == advisor.options(game.sheet(0), (2, 2, 2, 2, 2), 2)
    assert options[0] == Option(options[0].expected, box=Box.KISMET)
    assert advisor.game_options(game, seat=1) == ()
