"""The solver against values found without it: Glenn's Yahtzee optimum and brute-force expectimax."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from kismet_dice.strategy.ruleset import RuleSet, rule_set, yahtzee_rules
from kismet_dice.strategy.solver import count_positions, solve

# J. Glenn, "An Optimal Strategy for Yahtzee" (2006): no Yahtzee bonus, no joker rule.
GLENN_YAHTZEE = 245.8707745141


def test_plain_yahtzee_matches_glenns_published_optimum() -> None:
    values = solve(yahtzee_rules())
    assert values[0, 0] == pytest.approx(GLENN_YAHTZEE, abs=1e-6)


def brute_force(rules: RuleSet, points: dict[str, dict[tuple[int, ...], int]]) -> Fraction:
    """Expectimax over ordered dice and held positions, in exact fractions, sharing nothing with the solver.

    ``points[box][sorted dice]`` is what the dice score in the box.
    """
    return brute_force_positions(rules, points)(frozenset(), 0)


def brute_force_positions(
    rules: RuleSet, points: dict[str, dict[tuple[int, ...], int]]
) -> Callable[[frozenset[str], int], Fraction]:
    """The brute-force value of every turn-start position: ``start(filled box names, capped total)``."""
    names = [box.name for box in rules.boxes]
    basic = {box.name for box in rules.boxes if box.basic}
    faces = range(1, rules.faces + 1)
    n = rules.dice

    def outcomes(count: int) -> list[tuple[int, ...]]:
        return list(itertools.product(faces, repeat=count))

    @cache
    def start(filled: frozenset[str], total: int) -> Fraction:
        if len(filled) == len(names):
            return Fraction(rules.bonus[total])
        rolls = outcomes(n)
        return sum(
            (decide(filled, total, tuple(sorted(dice)), rules.rolls_per_turn - 1) for dice in rolls),
            Fraction(0),
        ) / len(rolls)

    # ``dice`` come sorted: the dice are held and rolled by position below, but dice in any order
    # are worth the same, and remembering each order apart took three times as long.
    @cache
    def decide(filled: frozenset[str], total: int, dice: tuple[int, ...], left: int) -> Fraction:
        options = []
        for name in names:
            if name in filled:
                continue
            got = points[name][dice]
            after = min(total + got, rules.cap) if name in basic else total
            options.append(got + start(filled | {name}, after))
        if left:
            for held in itertools.product((True, False), repeat=n):
                if all(held):
                    continue
                rolled = [i for i in range(n) if not held[i]]
                fresh = outcomes(len(rolled))
                worth = Fraction(0)
                for new in fresh:
                    dice_after = list(dice)
                    for i, face in zip(rolled, new, strict=True):
                        dice_after[i] = face
                    worth += decide(filled, total, tuple(sorted(dice_after)), left - 1)
                options.append(worth / len(fresh))
        return max(options)

    return start


def _small_game(
    dice: int, faces: int, bonus_at: int
) -> tuple[RuleSet, dict[str, dict[tuple[int, ...], int]]]:
    def upper(face: int):  # type: ignore[no-untyped-def]
        return lambda roll: face * roll.count(face)

    def same(roll: tuple[int, ...]) -> int:
        return sum(roll) + 10 if len(set(roll)) == 1 else 0

    def pair_same_colour(roll: tuple[int, ...]) -> int:
        # Kismet's colour idea on small dice: faces f and faces+1-f share a colour.
        return sum(roll) if len({min(f, faces + 1 - f) for f in roll}) == 1 else 0

    boxes = [
        ("ONES", upper(1), True),
        ("THREES", upper(3), True),
        ("SAME", same, False),
        ("COLOUR", pair_same_colour, False),
        ("CHANCE", sum, False),
    ]
    rules = rule_set("small", dice, faces, boxes, [0] * bonus_at + [7])
    table = {
        name: {
            roll: points(roll) for roll in itertools.combinations_with_replacement(range(1, faces + 1), dice)
        }
        for name, points, _ in boxes
    }
    return rules, table


@pytest.mark.parametrize(("dice", "faces", "bonus_at"), [(2, 6, 6), (3, 4, 5), (2, 3, 3)])
def test_small_games_agree_with_brute_force(dice: int, faces: int, bonus_at: int) -> None:
    rules, points = _small_game(dice, faces, bonus_at)
    exact = brute_force(rules, points)
    assert solve(rules, threads=1)[0, 0] == pytest.approx(float(exact), rel=1e-12)


@pytest.mark.parametrize(("dice", "faces", "bonus_at"), [(2, 6, 6), (2, 3, 3)])
def test_every_position_of_small_games_agrees_with_brute_force(dice: int, faces: int, bonus_at: int) -> None:
    # Totals that lead to the same bonuses are computed once and copied: each copy is checked here.
    rules, points = _small_game(dice, faces, bonus_at)
    start = brute_force_positions(rules, points)
    values = solve(rules, threads=1)
    names = [box.name for box in rules.boxes]
    checked = 0
    for mask, total in zip(*np.nonzero(np.isfinite(values[:-1])), strict=True):
        filled = frozenset(name for i, name in enumerate(names) if mask >> i & 1)
        assert values[mask, total] == pytest.approx(float(start(filled, int(total))), rel=1e-12)
        checked += 1
    assert checked == count_positions(rules)


def test_two_processes_give_the_same_table_as_one() -> None:
    rules, _ = _small_game(2, 6, 6)
    np.testing.assert_array_equal(solve(rules, threads=1), solve(rules, threads=2))


def test_every_reachable_position_is_solved() -> None:
    rules, _ = _small_game(3, 4, 5)
    values = solve(rules, threads=1)
    # The last row is the full sheet, which holds only the bonus.
    assert int(np.isfinite(values[:-1]).sum()) == count_positions(rules)


def test_no_value_exceeds_the_best_of_every_box() -> None:
    # A box-by-box upper bound: no expectation can exceed the best score of every box plus the top bonus.
    rules, _ = _small_game(2, 6, 6)
    values = solve(rules, threads=1)
    ceiling = sum(max(box.points) for box in rules.boxes) + max(rules.bonus)
    assert np.nanmax(values) <= ceiling
    assert Counter(np.isnan(values[0]).tolist())[False] == 1  # only a total of 0 starts a game
