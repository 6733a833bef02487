"""The Hall of Fame: ten entries, qualifying, ties, names, and who may never enter."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from kismet_dice.rules import IllegalAction
from kismet_dice.storage import HallEntry, NotEligible, Storage


def submit(storage: Storage, name: str, total: int, players: int = 1) -> HallEntry | None:
    return storage.hall.submit(name, total, players=players, computer=False, assisted=False)


def test_an_empty_list_takes_any_total(storage: Storage) -> None:
    assert storage.hall.entries() == ()
    assert storage.hall.qualifies(0)
    entry = storage.hall.submit(
        "Ann", 0, players=3, computer=False, assisted=False, when=datetime(2024, 5, 1, 14, 3, tzinfo=UTC)
    )
    assert entry is not None
    assert (entry.rank, entry.name, entry.total, entry.players) == (1, "Ann", 0, 3)
    assert storage.hall.entries() == (entry,)
    assert entry.as_json() == {
        "rank": 1,
        "name": "Ann",
        "total": 0,
        "date": "2024-05-01T14:03:00+00:00",
        "players": 3,
    }


def test_ten_entries_best_first_and_a_full_list_needs_more_than_the_lowest(storage: Storage) -> None:
    for number, total in enumerate([150, 300, 120, 280, 110, 270, 260, 250, 240, 230]):
        assert submit(storage, f"P{number}", total) is not None
    totals = [entry.total for entry in storage.hall.entries()]
    assert totals == [300, 280, 270, 260, 250, 240, 230, 150, 120, 110]
    assert [entry.rank for entry in storage.hall.entries()] == list(range(1, 11))

    assert not storage.hall.qualifies(110)
    assert submit(storage, "Equal", 110) is None
    assert submit(storage, "Lower", 5) is None
    assert storage.hall.qualifies(111)
    entry = submit(storage, "Just", 111)
    assert entry is not None
    assert entry.rank == 10
    after = storage.hall.entries()
    assert len(after) == 10
    assert [e.name for e in after][-2:] == ["P2", "Just"]
    assert all(e.name != "P4" for e in after)  # 110 fell off the bottom


def test_a_tie_ranks_below_the_entry_already_there(storage: Storage) -> None:
    first = submit(storage, "First", 200)
    second = submit(storage, "Second", 200)
    top = submit(storage, "Top", 201)
    assert first is not None and second is not None and top is not None
    assert (first.rank, second.rank, top.rank) == (1, 2, 1)
    assert [e.name for e in storage.hall.entries()] == ["Top", "First", "Second"]


def test_a_tie_with_the_lowest_of_ten_does_not_enter(storage: Storage) -> None:
    for number in range(10):
        submit(storage, f"P{number}", 100)
    assert submit(storage, "Late", 100) is None
    assert [e.name for e in storage.hall.entries()] == [f"P{n}" for n in range(10)]


def test_names_are_trimmed_and_checked(storage: Storage) -> None:
    entry = submit(storage, "  Zoë Ångström  ", 50)
    assert entry is not None
    assert entry.name == "Zoë Ångström"
    assert submit(storage, "x" * 24, 40) is not None
    for bad in ["", "   ", "x" * 25, "Ann\nBob", "tab\there", "bell\x07", "\x1b[31mred"]:
        with pytest.raises(IllegalAction):
            submit(storage, bad, 999)
    assert [e.total for e in storage.hall.entries()] == [50, 40]


def test_computer_players_and_assisted_games_never_enter(storage: Storage) -> None:
    with pytest.raises(NotEligible, match="computer players"):
        storage.hall.submit("HAL", 400, players=2, computer=True, assisted=False)
    with pytest.raises(NotEligible, match="advice"):
        storage.hall.submit("Ann", 400, players=1, computer=False, assisted=True)
    assert storage.hall.entries() == ()


@pytest.mark.parametrize("total", [-1, True, 1.5, "300"])
def test_a_total_that_is_no_game_total_is_refused(storage: Storage, total: object) -> None:
    with pytest.raises(ValueError, match="whole number"):
        storage.hall.submit("Ann", total, players=1, computer=False, assisted=False)  # type: ignore[arg-type]
    assert storage.hall.entries() == ()


def test_the_list_survives_closing_and_clear_empties_it(home: Path) -> None:
    with Storage.open() as storage:
        submit(storage, "Ann", 250, players=2)
        submit(storage, "Bob", 260, players=2)
    with Storage.open() as storage:
        assert [(e.name, e.total, e.players) for e in storage.hall.entries()] == [
            ("Bob", 260, 2),
            ("Ann", 250, 2),
        ]
        assert storage.hall.clear() == 2
        assert storage.hall.entries() == ()
    assert (home / "kismet.sqlite3").is_file()
