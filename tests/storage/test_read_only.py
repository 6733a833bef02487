"""A store that cannot be written is found at once, in words that say so, not at the first save.

The store is made read-only for a child process (see :mod:`tests.support.readonly`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kismet_dice.storage import Storage
from tests.support.readonly import read_only_run

SOURCE = Path(__file__).parents[2] / "src"

# Opens the store, reads the Hall of Fame, then checks that it can be written.
CHILD = """
import sys
from kismet_dice.storage import Storage, StorageError

try:
    storage = Storage.open(sys.argv[1])
    print("entries", len(storage.hall.entries()))
    storage.check_writable()
    print("writable")
except StorageError as error:
    print("refused", error)
    print("public", error.public)
"""


def run_read_only(home: Path) -> list[str]:
    """The child's lines, run with ``home`` (directory and file) read-only."""
    done = read_only_run(home, [sys.executable, "-c", CHILD, str(home)], {"PYTHONPATH": str(SOURCE)})
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.fixture
def store(home: Path) -> Path:
    with Storage.open(home) as storage:
        storage.hall.submit("Ann", 120, players=1, computer=False, assisted=False)
        storage.check_writable()  # a writable store passes, and the check changes nothing
        assert [entry.name for entry in storage.hall.entries()] == ["Ann"]
    return home


def test_a_read_only_store_that_another_kismet_has_open_reads_but_fails_the_check(store: Path) -> None:
    # While another process has it open, its journal files are there: a read-only copy then
    # opens and reads fine, and only a write can tell it cannot be saved to.
    with Storage.open(store):
        lines = run_read_only(store)
    assert lines[0] == "entries 1"
    assert lines[1].startswith("refused ") and "is read-only" in lines[1]
    assert str(store / "kismet.sqlite3") in lines[1]
    assert lines[2] == "public the game store is read-only"
    with Storage.open(store) as storage:
        assert [entry.name for entry in storage.hall.entries()] == ["Ann"]


def test_a_read_only_store_no_one_has_open_is_refused_on_opening_as_read_only(store: Path) -> None:
    lines = run_read_only(store)
    assert lines[0].startswith("refused ") and "is read-only" in lines[0]
    assert str(store / "kismet.sqlite3") in lines[0]
    assert lines[1] == "public the game store is read-only"
