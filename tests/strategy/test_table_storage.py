"""Stored tables: found again, and never trusted when damaged or made for other rules."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

from kismet_dice.strategy.ruleset import RuleSet, rule_set
from kismet_dice.strategy.table import StrategyTable, load, load_or_solve, save, table_dir, table_path


def small(bonus: int) -> RuleSet:
    boxes = [
        ("TWOS", lambda r: 2 * r.count(2), True),
        ("PAIR", lambda r: sum(r) if r[0] == r[1] else 0, False),
    ]
    return rule_set("small", 2, 6, boxes, [0] * 4 + [bonus])


def test_a_stored_table_loads_back_equal(tmp_path: Path) -> None:
    first = load_or_solve(small(5), directory=tmp_path)
    again = load(small(5), table_path(small(5), tmp_path))
    assert again is not None
    np.testing.assert_array_equal(first.values, again.values)
    assert not list(tmp_path.glob("*.tmp"))  # the temporary file was renamed into place


@pytest.mark.parametrize("damage", ["flip", "truncate", "header", "empty"])
def test_a_damaged_table_is_recomputed(tmp_path: Path, damage: str) -> None:
    rules = small(5)
    good = load_or_solve(rules, directory=tmp_path)
    path = table_path(rules, tmp_path)
    content = bytearray(path.read_bytes())
    if damage == "flip":
        content[-3] ^= 0x40
    elif damage == "truncate":
        content = content[:-8]
    elif damage == "header":
        content = content.replace(b"kismet-dice strategy table", b"something else entirely!!", 1)
    else:
        content = bytearray()
    path.write_bytes(bytes(content))
    assert load(rules, path) is None
    again = load_or_solve(rules, directory=tmp_path)
    np.testing.assert_array_equal(again.values, good.values)
    assert load(rules, path) is not None  # and stored soundly again


def test_a_table_of_other_rules_is_not_used(tmp_path: Path) -> None:
    mine, theirs = small(5), small(9)
    assert mine.fingerprint != theirs.fingerprint
    save(load_or_solve(theirs, directory=tmp_path), table_path(mine, tmp_path))
    assert load(mine, table_path(mine, tmp_path)) is None
    solved = load_or_solve(mine, directory=tmp_path)
    # A bigger bonus is worth more, so the two tables really differ.
    assert solved.expected_score < load_or_solve(theirs, directory=tmp_path).expected_score


def test_kismet_home_decides_where_tables_live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KISMET_HOME", str(tmp_path))
    assert table_dir() == tmp_path / "tables"
    monkeypatch.delenv("KISMET_HOME")
    assert table_dir() != tmp_path / "tables"


def test_a_table_sent_to_a_simulation_worker_stays_read_only(kismet_table: StrategyTable) -> None:
    # Workers receive the table pickled; a writable copy there could be changed, and the compiled
    # loops would be compiled once more for it.
    received = pickle.loads(pickle.dumps(kismet_table))
    assert not received.values.flags.writeable
    np.testing.assert_array_equal(received.values, kismet_table.values)
    with pytest.raises(ValueError, match="read-only"):
        received.values[0, 0] = 0.0
