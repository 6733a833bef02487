"""The distribution of perfect play and the chances computed from it."""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from xml.etree import ElementTree

import numpy as np
import pytest

from kismet_dice import charts
from kismet_dice.rules import Box, Sheet
from kismet_dice.strategy import kernel
from kismet_dice.strategy.advisor import position_key, raw_points
from kismet_dice.strategy.chances import chance, wilson
from kismet_dice.strategy.dice_space import IntArray
from kismet_dice.strategy.distribution import (
    Distribution,
    _plans,
    _stand_ins,
    _work_block,
    distribution_path,
    forward,
    future_pass,
    load,
    load_or_compute,
    perfect_play,
    save,
)
from kismet_dice.strategy.ruleset import RuleSet, kismet_rules, rule_set
from kismet_dice.strategy.simulate import play_hard, run
from kismet_dice.strategy.solver import _layer, solve
from kismet_dice.strategy.table import StrategyTable

KISMET_IN_THREE_ROLLS = 0.0460286


def small_rules() -> RuleSet:
    def upper(face: int):  # type: ignore[no-untyped-def]
        return lambda roll: face * roll.count(face)

    boxes = [
        ("ONES", upper(1), True),
        ("THREES", upper(3), True),
        ("SAME", lambda roll: sum(roll) + 10 if len(set(roll)) == 1 else 0, False),
        ("CHANCE", sum, False),
    ]
    return rule_set("small", 3, 4, boxes, [0] * 5 + [7])


def ks_statistic(distribution: Distribution, totals: IntArray) -> float:
    """The largest gap between the exact and the sampled cumulative distribution, at every total."""
    grid = np.arange(distribution.offset, distribution.offset + len(distribution.probabilities))
    exact = np.cumsum(distribution.probabilities)
    sampled = np.searchsorted(np.sort(totals), grid, side="right") / len(totals)
    return float(np.abs(exact - sampled).max())


def test_a_small_games_distribution_sums_to_one_and_has_the_solvers_mean() -> None:
    rules = small_rules()
    table = StrategyTable(rules, solve(rules, threads=1))
    distribution = perfect_play(table)
    assert distribution.probabilities.sum() == pytest.approx(1.0, abs=1e-12)
    assert distribution.mean == pytest.approx(table.expected_score, abs=1e-9)


def test_a_small_games_distribution_agrees_with_simulated_hard_games() -> None:
    rules = small_rules()
    table = StrategyTable(rules, solve(rules, threads=1))
    distribution = perfect_play(table)
    played = play_hard(table, 20_000, np.random.default_rng(7))
    totals = (
        played.entries.sum(axis=1)
        + np.array(rules.bonus)[np.minimum(played.entries[:, :2].sum(axis=1), rules.cap)]
    )
    # The asymptotic 1% critical value of the Kolmogorov-Smirnov statistic is 1.63 / sqrt(n);
    # for a discrete distribution the test is conservative.
    assert ks_statistic(distribution, totals) < 1.63 / np.sqrt(len(totals))


def test_a_distribution_is_stored_and_a_damaged_file_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rules = small_rules()
    distribution = Distribution(3, np.array([0.5, 0.25, 0.25]))
    path = tmp_path / "d.distribution"
    save(rules, distribution, path)
    loaded = load(rules, path)
    assert loaded is not None and loaded.offset == 3 and loaded.probabilities.tolist() == [0.5, 0.25, 0.25]
    content = bytearray(path.read_bytes())
    content[-1] ^= 1
    path.write_bytes(bytes(content))
    assert load(rules, path) is None


def only_kismet_open(points: int = 0) -> Sheet:
    entries: list[int | None] = [0] * 14 + [None]
    entries[0] = points
    return Sheet(tuple(entries))


def test_with_only_kismet_open_the_points_to_come_are_a_kismet_in_three_rolls(
    kismet_table: StrategyTable,
) -> None:
    futures = future_pass(kismet_table, ((1 << 14) - 1, 0), keep=0)
    vector = futures.future((1 << 14) - 1, 0)
    assert 1 - vector[0] == pytest.approx(KISMET_IN_THREE_ROLLS, abs=5e-8)
    # A Kismet scores its dice plus 50: 55 for five 1s up to 80 for five 6s, nothing in between.
    assert set(np.flatnonzero(vector).tolist()) == {0, 55, 60, 65, 70, 75, 80}


def test_with_only_kismet_open_one_point_more_needs_exactly_a_kismet(kismet_table: StrategyTable) -> None:
    sheet = only_kismet_open(4)  # 4 points on the sheet, no bonus possible
    assert chance(kismet_table, sheet, 5).chance == pytest.approx(KISMET_IN_THREE_ROLLS, abs=5e-8)
    assert chance(kismet_table, sheet, 4).chance == pytest.approx(1.0)
    # 4 + 55 is the least a Kismet gives; 4 + 80 the most (five 6s).
    assert chance(kismet_table, sheet, 59).chance == pytest.approx(KISMET_IN_THREE_ROLLS, abs=5e-8)
    assert 0 < chance(kismet_table, sheet, 84).chance < chance(kismet_table, sheet, 60).chance
    assert chance(kismet_table, sheet, 85).chance == 0.0


def test_chances_never_increase_as_the_target_rises(kismet_table: StrategyTable) -> None:
    sheet = Sheet()
    for box, points in zip(list(Box)[:11], (3, 6, 9, 12, 15, 18, 20, 20, 30, 35, 25), strict=True):
        sheet = sheet.with_entry(box, points)
    found = [chance(kismet_table, sheet, target).chance for target in range(150, 400, 25)]
    assert all(later <= earlier + 1e-12 for earlier, later in itertools.pairwise(found))
    assert found[0] > found[-1]


@pytest.mark.parametrize(
    "open_boxes", [(Box.FOUR_OF_A_KIND, Box.YARBOROUGH, Box.KISMET), (Box.SIXES, Box.KISMET)]
)
def test_the_points_to_come_from_a_sheet_with_a_low_basic_total_sum_to_one_with_the_solvers_mean(
    kismet_table: StrategyTable, open_boxes: tuple[Box, ...]
) -> None:
    # 29 in the Basic boxes: the solver lets a lower total stand in for it (no bonus either way),
    # and the pass from this sheet must not follow the stand-in to positions it never listed.
    sheet = Sheet()
    entries = (0, 0, 0, 0, 5, 24, 29, 29, 0, 0, 0, 0, 0, 0, 0)
    for box, points in zip(Box, entries, strict=True):
        if box not in open_boxes:
            sheet = sheet.with_entry(box, points)
    root = position_key(sheet, kismet_table.rules.cap)
    vector = future_pass(kismet_table, root, keep=0).future(*root)
    assert vector.sum() == pytest.approx(1.0, abs=1e-9)
    assert np.dot(np.arange(len(vector)), vector) == pytest.approx(kismet_table.values[root], abs=1e-6)


@pytest.mark.timeout(200)
def test_an_exact_chance_from_a_late_sheet_agrees_with_simulation(kismet_table: StrategyTable) -> None:
    sheet = Sheet()
    for box, points in zip(list(Box)[:11], (3, 6, 9, 12, 15, 18, 20, 20, 30, 35, 25), strict=True):
        sheet = sheet.with_entry(box, points)
    # 246 lies where the chance falls fastest (0.999 at 244, 0.96 at 248): a point too many or too
    # few in the forward pass moves it by far more than the interval, and at 0.99 the first batch of
    # games already makes the interval narrow enough (a chance of 0.8 needed five batches).
    exact = chance(kismet_table, sheet, 246)
    simulated = chance(kismet_table, sheet, 246, exact=False, seed=3)
    assert exact.exact and not simulated.exact and simulated.interval is not None
    low, high = simulated.interval
    assert high - low < 0.005
    # A 99.9% interval around the simulated chance holds the exact one.
    spread = (high - low) / 2 * 3.29 / 1.96
    assert abs(exact.chance - simulated.chance) < spread
    assert exact.expected == simulated.expected


def test_the_wilson_interval_holds_its_proportion() -> None:
    low, high = wilson(30, 1000)
    assert low < 0.03 < high


KISMET_MEAN = 315.1799959055


@pytest.mark.timeout(1200)
def test_the_kismet_distribution_sums_to_one_and_has_the_solvers_mean(
    kismet_table: StrategyTable, kismet_distribution: Distribution
) -> None:
    assert kismet_distribution.probabilities.sum() == pytest.approx(1.0, abs=1e-12)
    assert kismet_distribution.probabilities.min() >= 0.0
    assert kismet_distribution.mean == pytest.approx(KISMET_MEAN, abs=1e-6)
    assert kismet_distribution.mean == pytest.approx(kismet_table.expected_score, abs=1e-9)


@pytest.mark.timeout(1200)
def test_the_kismet_distribution_agrees_with_40000_simulated_hard_games(
    kismet_table: StrategyTable, kismet_distribution: Distribution
) -> None:
    # 40,000 games: the 1% critical value of the statistic is then 0.008, and a percentile's sampling
    # error a quarter of a point, well inside the 3 points allowed below. Played in this process:
    # on two workers the games took 6.3-7.0 core-seconds on the 2-core machine, in one 3.0-3.5 (the
    # process's start included), and the tests beside them wait for the cores.
    played = run("hard", 40_000, seed=20260413, table=kismet_table, processes=1)
    # The 1% critical value of the Kolmogorov-Smirnov statistic, conservative for a discrete law.
    assert ks_statistic(kismet_distribution, played.totals) < 1.63 / np.sqrt(len(played.totals))
    # And the percentiles a reader sees in the README are those of the games played.
    for percent in (5, 50, 95):
        assert abs(kismet_distribution.percentile(percent) - np.percentile(played.totals, percent)) <= 3


@pytest.mark.timeout(1200)
def test_the_readme_chart_of_perfect_play(kismet_distribution: Distribution) -> None:
    perfect = kismet_distribution.by_total()
    svg = charts.histogram(
        [],
        title="Final totals of perfect play: the exact distribution",
        references={"perfect play": perfect},
        bin_width=10,
    )
    root = ElementTree.fromstring(svg)
    assert root.tag.endswith("svg") and "perfect play" in svg
    # The README quotes these percentiles: each is a total, and they rise with the share.
    percentiles = [kismet_distribution.percentile(p) for p in (1, 5, 25, 50, 75, 95, 99)]
    assert percentiles == sorted(percentiles) and percentiles[3] == 313
    assert sum(p for total, p in perfect.items() if total < percentiles[3]) < 0.5
    assert sum(p for total, p in perfect.items() if total <= percentiles[3]) >= 0.5
    # The chart is written under build/; KISMET_SCREENSHOT=docs writes the README's copy.
    folder = Path(__file__).parents[2] / (
        "docs" if os.environ.get("KISMET_SCREENSHOT") == "docs" else "build"
    )
    folder.mkdir(exist_ok=True)
    (folder / "perfect-play.svg").write_text(svg, encoding="utf-8")


class _Cut(Exception):
    """What a progress report raises to stop the work (as a server stopping does)."""


def test_a_distribution_whose_progress_report_raises_stops_there_and_stores_nothing(tmp_path: Path) -> None:
    rules = small_rules()
    table = StrategyTable(rules, solve(rules, threads=1))
    reports: list[tuple[int, int]] = []

    def cut_at_the_third(done: int, total: int) -> None:
        reports.append((done, total))
        if len(reports) == 3:
            raise _Cut

    with pytest.raises(_Cut):
        load_or_compute(table, directory=tmp_path, progress=cut_at_the_third)
    # The pass went no further than the report that raised, which was not its last.
    assert len(reports) == 3 and reports[-1][0] < reports[-1][1]
    assert not distribution_path(rules, tmp_path).exists()
    # Its lock let go, the next ask works the distribution out whole and stores it.
    whole = load_or_compute(table, directory=tmp_path)
    assert whole.probabilities.sum() == pytest.approx(1.0, abs=1e-12)
    assert load(rules, distribution_path(rules, tmp_path)) is not None


def test_the_forward_pass_from_every_position_of_a_small_game_equals_the_backward_pass() -> None:
    rules = small_rules()
    table = StrategyTable(rules, solve(rules, threads=1))
    checked = 0
    for mask, total in zip(*np.nonzero(np.isfinite(table.values[:-1])), strict=True):
        for points in (total, total + 9):  # the Basic total alone, or 9 more points elsewhere
            root = (int(mask), int(total))
            behind = Distribution.trimmed(int(points), future_pass(table, root, keep=0).future(*root))
            ahead = forward(table, (*root, int(points)))
            assert ahead.probabilities.sum() == pytest.approx(1.0, abs=1e-12)
            assert ahead.offset == behind.offset and len(ahead.probabilities) == len(behind.probabilities)
            np.testing.assert_allclose(ahead.probabilities, behind.probabilities, rtol=0, atol=1e-15)
            checked += 1
    assert checked > 50


def test_the_forward_pass_from_a_late_kismet_sheet_equals_the_backward_pass(
    kismet_table: StrategyTable,
) -> None:
    sheet = Sheet()
    for box, points in zip(list(Box)[:9], (3, 6, 9, 12, 15, 18, 20, 20, 30), strict=True):
        sheet = sheet.with_entry(box, points)
    root = position_key(sheet, kismet_table.rules.cap)
    behind = Distribution.trimmed(raw_points(sheet), future_pass(kismet_table, root, keep=0).future(*root))
    points = raw_points(sheet)  # the bonus is still to come: the table counts it
    ahead = forward(kismet_table, (*root, points))
    assert ahead.mean == pytest.approx(points + kismet_table.values[root], abs=1e-9)
    assert ahead.offset == behind.offset and len(ahead.probabilities) == len(behind.probabilities)
    np.testing.assert_allclose(ahead.probabilities, behind.probabilities, rtol=0, atol=1e-14)


def test_the_forward_pass_gives_the_same_numbers_to_the_bit_with_any_number_of_threads(
    kismet_table: StrategyTable,
) -> None:
    sheet = Sheet()
    for box, points in zip(list(Box)[:5], (2, 6, 9, 8, 15), strict=True):
        sheet = sheet.with_entry(box, points)
    root = (*position_key(sheet, kismet_table.rules.cap), raw_points(sheet))
    alone = forward(kismet_table, root, threads=1)
    for threads in (2, 3):
        shared = forward(kismet_table, root, threads=threads)
        assert shared.offset == alone.offset
        assert np.array_equal(shared.probabilities, alone.probabilities)


@pytest.mark.parametrize("rules", [small_rules(), kismet_rules()], ids=["small", "kismet"])
def test_each_totals_stand_in_is_the_one_the_solvers_layers_copy_it_from(rules: RuleSet) -> None:
    same = _stand_ins(rules)
    expected = np.tile(np.arange(rules.cap + 1), (1 << len(rules.boxes), 1))
    copies = 0
    for filled in range(len(rules.boxes) + 1):
        _, _, copy_masks, copy_totals, stand_in = _layer(rules, filled)
        expected[copy_masks, copy_totals] = stand_in
        copies += len(copy_masks)
    assert copies > 0
    np.testing.assert_array_equal(same, expected)


def old_style_plans(rules: RuleSet, root_mask: int, root_total: int) -> dict[int, tuple[IntArray, IntArray]]:
    """Each later layer's positions the root leads to, from the solver's layers, each by its stand-in."""
    plans = {}
    for filled in range(root_mask.bit_count() + 1, len(rules.boxes) + 1):
        own_masks, own_totals, copy_masks, copy_totals, stand_in = _layer(rules, filled)
        masks = np.concatenate([own_masks, copy_masks])
        totals = np.concatenate([own_totals, copy_totals])
        wanted = ((masks & root_mask) == root_mask) & (totals >= root_total)
        stand_ins = np.concatenate([own_totals, stand_in])[wanted]
        found = sorted(set(zip(masks[wanted].tolist(), stand_ins.tolist(), strict=True)))
        plans[filled] = (np.array([m for m, _ in found]), np.array([t for _, t in found]))
    return plans


@pytest.mark.parametrize(
    "root", [(0, 0), (0b1, 3), (0b100011, 12), (0b111111, 70), (0b110000001000001, 40)], ids=str
)
def test_the_forward_pass_plans_each_later_position_the_root_leads_to_once_by_its_stand_in(
    root: tuple[int, int],
) -> None:
    rules = kismet_rules()
    planned = _plans(rules, *root)
    expected = old_style_plans(rules, *root)
    assert planned.keys() == expected.keys() and sum(len(masks) for masks, _ in planned.values()) > 0
    for filled, (masks, totals) in expected.items():
        np.testing.assert_array_equal(planned[filled][0], masks)
        np.testing.assert_array_equal(planned[filled][1], totals)


def test_a_work_block_is_writable_doubles_of_the_size_asked_and_lives_as_long_as_its_array() -> None:
    for size in (0, 1, 1000, 1 << 20):
        block = _work_block(size)
        assert block.dtype == np.float64 and block.shape == (size,) and block.flags.writeable
        block[:] = 2.5
        assert float(block.sum()) == 2.5 * size
    view = _work_block(4096)[100:200]  # only a slice kept: the memory stays while it is read
    view[:] = 1.0
    assert float(view.sum()) == 100.0


def test_a_turns_endings_written_into_a_given_block_are_the_ones_returned() -> None:
    rules = small_rules()
    table = StrategyTable(rules, solve(rules, threads=1))
    tables = kernel.tables_of(rules)
    masks, totals = np.array([0, 1, 2, 5]), np.array([0, 2, 0, 3])
    block = np.full((len(masks), len(tables.pair_box)), np.nan)
    written = kernel.endings(tables, table.values, masks, totals, into=block)
    assert written.base is block
    np.testing.assert_array_equal(block.T, kernel.endings(tables, table.values, masks, totals))
    np.testing.assert_allclose(block.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    wrong = np.zeros((len(tables.pair_box), len(masks)))
    with pytest.raises(ValueError, match="one C-ordered row of float64 per column"):
        kernel.endings(tables, table.values, masks, totals, into=wrong)
    assert not wrong.any()


def test_a_chance_from_a_sheet_is_the_forward_pass_and_says_how_far_it_got() -> None:
    rules = small_rules()
    table = StrategyTable(rules, solve(rules, threads=1))
    reported: list[tuple[int, int]] = []
    distribution = forward(table, progress=lambda done, total: reported.append((done, total)))
    assert reported and reported[-1][0] == reported[-1][1]
    assert all(done <= total for done, total in reported)
    assert [done for done, _ in reported] == sorted(done for done, _ in reported)
    assert distribution.mean == pytest.approx(table.expected_score, abs=1e-12)
