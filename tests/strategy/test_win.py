"""Win chances: the chance of each final total from any place in a turn, and who wins how often."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from tests.support.futures import late_futures

from kismet_dice.rules import Box, Sheet
from kismet_dice.strategy.advisor import Advisor, position_key, raw_points
from kismet_dice.strategy.distribution import ERROR_BOUND, Futures, forward
from kismet_dice.strategy.table import StrategyTable
from kismet_dice.strategy.win import Place, final_totals, option_final_totals, win_chances


def late_sheet(points: tuple[int, ...]) -> Sheet:
    """A sheet with its first boxes (in the sheet's order) holding ``points``."""
    sheet = Sheet()
    for box, entered in zip(Box, points, strict=False):
        sheet = sheet.with_entry(box, entered)
    return sheet


LATE = late_sheet((3, 6, 9, 12, 15, 18, 20, 20, 30, 35))


@pytest.fixture(scope="module")
def futures(kismet_table: StrategyTable) -> Futures:
    return late_futures(kismet_table, LATE)


def by_brute_force(pmfs: list[dict[int, float]]) -> list[float]:
    """Every combination of totals, the win shared among those level on top."""
    chances = [0.0] * len(pmfs)
    for totals in itertools.product(*(pmf.items() for pmf in pmfs)):
        weight = float(np.prod([chance for _, chance in totals]))
        best = max(total for total, _ in totals)
        winners = [player for player, (total, _) in enumerate(totals) if total == best]
        for player in winners:
            chances[player] += weight / len(winners)
    return chances


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_win_chances_are_those_of_every_combination_of_totals_with_ties_shared(players: int) -> None:
    generator = np.random.default_rng(players)
    pmfs = []
    for _ in range(players):
        weights = generator.random(6) * (generator.random(6) < 0.7)
        weights[generator.integers(6)] += 0.1
        pmfs.append({total: weight / weights.sum() for total, weight in enumerate(weights) if weight > 0})
    survivals = []
    for pmf in pmfs:
        exact = np.array([pmf.get(total, 0.0) for total in range(6)])
        survivals.append(exact[::-1].cumsum()[::-1])
    assert win_chances(survivals) == pytest.approx(by_brute_force(pmfs), abs=1e-12)


def test_at_a_turns_start_the_final_totals_are_the_exact_distributions_within_the_bound(
    kismet_table: StrategyTable, futures: Futures
) -> None:
    mask, total = position_key(LATE, kismet_table.rules.cap)
    exact = forward(kismet_table, (mask, total, raw_points(LATE)))
    found = final_totals(futures, kismet_table, Place(LATE))
    assert len(found) > exact.offset + len(exact.probabilities) - 1
    expected = [exact.at_least(threshold) for threshold in range(len(found))]
    assert np.max(np.abs(found - np.array(expected))) <= ERROR_BOUND


def test_the_first_roll_of_a_turn_averages_back_to_the_turns_start(
    kismet_table: StrategyTable, futures: Futures
) -> None:
    space = kismet_table.rules.space
    averaged = sum(
        chance * final_totals(futures, kismet_table, Place(LATE, tuple(roll), rolls_left=2))
        for roll, chance in zip(space.rolls, space.roll_probabilities, strict=True)
    )
    at_start = final_totals(futures, kismet_table, Place(LATE))
    assert np.max(np.abs(averaged - at_start)) <= 1e-9


def test_five_of_a_kind_with_kismet_open_and_no_roll_left_has_its_kismet_for_sure(
    kismet_table: StrategyTable, futures: Futures
) -> None:
    # With 5 sixes the hard player enters 50 in Kismet (or better); every total below the sheet's
    # points plus that is then certain.
    found = final_totals(futures, kismet_table, Place(LATE, (6, 6, 6, 6, 6), rolls_left=0))
    assert found[raw_points(LATE) + 30] == pytest.approx(1.0, abs=ERROR_BOUND)
    assert found[0] == pytest.approx(1.0)


def test_a_full_sheet_ends_at_its_total_and_a_leader_who_cannot_be_caught_wins_for_sure(
    kismet_table: StrategyTable, futures: Futures
) -> None:
    full = late_sheet((3, 6, 9, 12, 15, 18, 20, 20, 30, 35, 25, 30, 40, 50, 50))
    assert full.is_full
    ended = final_totals(futures, kismet_table, Place(full))
    assert ended[full.total] == 1.0 and ended[full.total + 1 :].sum() == 0.0
    # The same Basic boxes as the late sheet (a position its futures cover), nothing elsewhere.
    behind = final_totals(futures, kismet_table, Place(late_sheet((3, 6, 9, 12, 15, 18, 0, 0, 0, 0))))
    chances = win_chances([ended, behind])
    assert sum(chances) == pytest.approx(1.0)
    assert chances == pytest.approx((1.0, 0.0), abs=1e-12)


@pytest.mark.parametrize("rolls_left", [0, 1, 2])
def test_the_advices_best_option_leads_to_the_final_totals_of_playing_on_from_the_dice(
    kismet_table: StrategyTable, futures: Futures, rolls_left: int
) -> None:
    # The hard player takes the advice's best option: its final totals are those from the dice.
    dice = (2, 3, 4, 5, 5)
    ranked = Advisor(kismet_table).options(LATE, dice, rolls_left)
    best = option_final_totals(futures, kismet_table, LATE, dice, rolls_left, ranked[0])
    from_dice = final_totals(futures, kismet_table, Place(LATE, dice, rolls_left))
    longest = max(len(best), len(from_dice))
    padded = [np.pad(row, (0, longest - len(row))) for row in (best, from_dice)]
    assert np.max(np.abs(padded[0] - padded[1])) <= 1e-9
    # And no option's mean final total is above the best's (they are the advice's expected totals).
    for option in ranked:
        after = option_final_totals(futures, kismet_table, LATE, dice, rolls_left, option)
        assert after[1:].sum() == pytest.approx(option.expected, abs=ERROR_BOUND * len(after))
