"""The futures of every position, stored beside the table: memory-mapped, checked, written whole."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from kismet_dice.strategy.distribution import ERROR_BOUND, exact_survival, future_pass, stored_layer
from kismet_dice.strategy.ruleset import tiny_rules
from kismet_dice.strategy.solver import solve
from kismet_dice.strategy.stored_futures import (
    HEADER,
    compute_and_store,
    futures_path,
    load_futures,
    load_or_compute_futures,
    save_futures,
)
from kismet_dice.strategy.table import StrategyTable
from kismet_dice.strategy.target import TargetPlayer


@pytest.fixture(scope="module")
def tiny_table() -> StrategyTable:
    rules = tiny_rules()
    return StrategyTable(rules, solve(rules, threads=1))


def every_position(table: StrategyTable) -> tuple[np.ndarray, np.ndarray]:
    """Every (mask, total) the futures hold a row for, in the layer order at_least wants."""
    futures = future_pass(table, keep=None)
    masks, totals = np.nonzero(futures.row_of >= 0)
    return masks.astype(np.intp), totals.astype(np.intp)


def test_a_stored_store_loads_memory_mapped_with_the_same_answers(
    tiny_table: StrategyTable, tmp_path: Path
) -> None:
    computed = future_pass(tiny_table, keep=None)
    stored = load_or_compute_futures(tiny_table, directory=tmp_path)
    assert futures_path(tiny_table.rules, tmp_path).is_dir()
    loaded = load_futures(tiny_table, tmp_path)
    assert loaded is not None and loaded.survival and stored.survival
    assert isinstance(loaded.row_of, np.memmap)
    assert all(isinstance(layer.values, np.memmap) for layer in loaded.layers.values())
    assert np.array_equal(loaded.row_of, computed.row_of)
    masks, totals = every_position(tiny_table)
    boxes = len(tiny_table.rules.boxes)
    assert sorted(loaded.layers) == [
        filled for filled in range(boxes + 1) if stored_layer(tiny_table.rules, filled)
    ]
    for filled in range(boxes + 1):
        if filled in loaded.layers:
            for part in ("values", "start", "low"):
                assert np.array_equal(
                    getattr(loaded.layers[filled], part), getattr(computed.layers[filled], part)
                )
        here = np.array([int(mask).bit_count() == filled for mask in masks])
        for needed in (-3, 0, 5, 11, 17, 400):
            wanted = np.full(here.sum(), needed)
            assert np.array_equal(
                loaded.at_least(masks[here], totals[here], wanted),
                computed.at_least(masks[here], totals[here], wanted),
            )


def test_the_target_player_plays_the_same_on_stored_futures(
    tiny_table: StrategyTable, tmp_path: Path
) -> None:
    loaded = load_or_compute_futures(tiny_table, directory=tmp_path)
    computed = future_pass(tiny_table, keep=None)
    rules = tiny_table.rules
    on_disk, in_memory = TargetPlayer(loaded, tiny_table, 14), TargetPlayer(computed, tiny_table, 14)
    mask, total, points = np.array([0]), np.array([0]), np.array([0])
    plans = on_disk.turns.turn(mask, total, points), in_memory.turns.turn(mask, total, points)
    for roll in range(len(rules.space.rolls)):
        for left in range(rules.rolls_per_turn):
            mine, theirs = (plan.decide(np.array([roll]), left) for plan in plans)
            assert np.array_equal(mine.chance, theirs.chance)
            assert (mine.reroll[0], mine.keep[0], mine.box[0]) == (
                theirs.reroll[0],
                theirs.keep[0],
                theirs.box[0],
            )
    assert plans[0].start_chance()[0] == pytest.approx(plans[1].start_chance()[0])


def test_a_second_load_or_compute_loads_what_the_first_stored(
    tiny_table: StrategyTable, tmp_path: Path
) -> None:
    load_or_compute_futures(tiny_table, directory=tmp_path)
    header = futures_path(tiny_table.rules, tmp_path) / HEADER
    written = header.stat().st_mtime_ns
    again = load_or_compute_futures(tiny_table, directory=tmp_path)
    assert isinstance(again.layers[0].values, np.memmap)
    assert header.stat().st_mtime_ns == written


def test_a_store_for_other_rules_is_refused(tiny_table: StrategyTable, tmp_path: Path) -> None:
    load_or_compute_futures(tiny_table, directory=tmp_path)
    other_rules = tiny_rules(rolls_per_turn=2)
    other = StrategyTable(other_rules, solve(other_rules, threads=1))
    assert load_futures(other, tmp_path) is None
    # Even under the other rules' name, the header's fingerprint says whose it is.
    shutil.copytree(futures_path(tiny_table.rules, tmp_path), futures_path(other_rules, tmp_path))
    assert load_futures(other, tmp_path) is None
    assert load_futures(tiny_table, tmp_path) is not None


def test_a_half_written_or_damaged_store_is_not_loaded(tiny_table: StrategyTable, tmp_path: Path) -> None:
    save_futures(future_pass(tiny_table, keep=None), futures_path(tiny_table.rules, tmp_path))
    store = futures_path(tiny_table.rules, tmp_path)
    layer = store / "layer-01-values.npy"
    whole = layer.read_bytes()
    layer.write_bytes(whole[: len(whole) // 2])  # cut short
    assert load_futures(tiny_table, tmp_path) is None
    layer.write_bytes(whole)
    assert load_futures(tiny_table, tmp_path) is not None
    header = json.loads((store / HEADER).read_text())
    (store / HEADER).write_text(json.dumps({**header, "version": header["version"] + 1}))
    assert load_futures(tiny_table, tmp_path) is None
    (store / HEADER).unlink()  # as a store stopped before its header was written
    assert load_futures(tiny_table, tmp_path) is None


def test_a_killed_write_leaves_no_store_and_nothing_under_its_name(
    tiny_table: StrategyTable, tmp_path: Path
) -> None:
    futures = future_pass(tiny_table, keep=None)
    del futures.layers[1]  # the write fails on the way, as if stopped there
    with pytest.raises(KeyError):
        save_futures(futures, futures_path(tiny_table.rules, tmp_path))
    assert list(tmp_path.iterdir()) == []
    assert load_futures(tiny_table, tmp_path) is None


def test_a_new_store_replaces_a_refused_one_in_place(tiny_table: StrategyTable, tmp_path: Path) -> None:
    store = futures_path(tiny_table.rules, tmp_path)
    store.mkdir()
    (store / HEADER).write_text("{}")
    assert load_futures(tiny_table, tmp_path) is None
    found = load_or_compute_futures(tiny_table, directory=tmp_path)
    assert isinstance(found.layers[0].values, np.memmap)
    assert sorted(path.name for path in tmp_path.iterdir()) == [store.name, store.name + ".lock"]


def test_only_the_survival_functions_of_every_layer_are_stored(
    tiny_table: StrategyTable, tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match="every layer"):
        save_futures(future_pass(tiny_table, keep=1), futures_path(tiny_table.rules, tmp_path))


def test_a_store_written_layer_by_layer_answers_as_the_pass_kept_in_memory(
    tiny_table: StrategyTable, tmp_path: Path
) -> None:
    given: list[int] = []
    passed = future_pass(tiny_table, keep=None, sink=lambda filled, layer: given.append(filled))
    # Each layer stored went to the sink as soon as it was final, from a full sheet back to the empty
    # one, and none was kept.
    boxes = len(tiny_table.rules.boxes)
    assert given == [filled for filled in range(boxes, -1, -1) if stored_layer(tiny_table.rules, filled)]
    assert passed.layers == {}
    stored = compute_and_store(tiny_table, directory=tmp_path)
    assert isinstance(stored.layers[0].values, np.memmap)
    kept = future_pass(tiny_table, keep=None)
    masks, totals = every_position(tiny_table)
    for needed in range(0, 40, 3):
        wanted = np.full(len(masks), needed)
        for filled in {int(mask).bit_count() for mask in masks}:
            here = np.array([int(mask).bit_count() == filled for mask in masks])
            assert np.array_equal(
                stored.at_least(masks[here], totals[here], wanted[here]),
                kept.at_least(masks[here], totals[here], wanted[here]),
            )
    with pytest.raises(ValueError, match="keep=None"):
        future_pass(tiny_table, keep=1, sink=lambda filled, layer: None)


def test_every_stored_chance_and_every_chance_worked_out_one_turn_on_is_within_the_stated_bound(
    tiny_table: StrategyTable, tmp_path: Path
) -> None:
    stored = compute_and_store(tiny_table, directory=tmp_path)
    exact = exact_survival(future_pass(tiny_table, keep=len(tiny_table.rules.boxes)))
    masks, totals = every_position(tiny_table)
    boxes = len(tiny_table.rules.boxes)
    worked_out = 0
    for filled in range(boxes + 1):
        here = np.array([int(mask).bit_count() == filled for mask in masks])
        worked_out += int(filled not in stored.layers) * int(here.sum())
        for needed in range(-1, 40):
            wanted = np.full(here.sum(), needed)
            found = stored.at_least(masks[here], totals[here], wanted)
            truth = exact.at_least(masks[here], totals[here], wanted)
            assert np.abs(found - truth).max() <= ERROR_BOUND
    assert worked_out > 0  # some layers were not stored, and were answered all the same
