"""The server's tables held in memory: a shortcut to the store, bounded, never the authority."""

from __future__ import annotations

from pathlib import Path

from kismet_dice.game import Roll, Rolled, ScriptedDice
from kismet_dice.session import Seat, Setup
from kismet_dice.session.tables import Stores, Tables
from kismet_dice.strategy import ComputerPlayer, Goal, Level


def no_computers(level: Level, goal: Goal) -> ComputerPlayer:
    raise AssertionError("these tables have no computer seats")


def test_beyond_its_bound_the_least_recently_used_table_not_in_use_is_let_go(home: Path) -> None:
    forgotten: list[str] = []
    busy: set[str] = set()
    stores = Stores(home)
    tables = Tables(
        stores,
        no_computers,
        ScriptedDice([2, 5] * 3 + [6, 6, 6, 6, 6]),  # each roll-off: the second seat begins
        held=2,
        busy=busy.__contains__,
        forgot=forgotten.append,
    )
    try:
        setup = Setup((Seat("Ann"), Seat("Bob")))
        first, second = (tables.create(setup) for _ in range(2))
        busy.add(first.table.id)  # pages follow it: it stays
        tables.get(second.table.id)
        third = tables.create(setup)
        assert tables.held == 2 and forgotten == [second.table.id]
        assert tables.table_of(second.table.saved_id) is None
        # A table let go is loaded again from the store when it is next asked for.
        bob = second.seat_tokens[1]
        assert bob is not None
        change = tables.act(second.table.id, bob, Roll(()))
        assert change.table.session.game.dice == (6, 6, 6, 6, 6) and change.version == 1
        assert change.table is not second.table
        assert forgotten == [second.table.id, third.table.id]  # the bound held: the oldest idle went
        assert tables.held == 2
    finally:
        stores.close()


def test_a_copy_another_process_moved_on_is_read_again_before_it_is_tried(home: Path) -> None:
    here, there = Stores(home), Stores(home)
    # The roll-off: 2 against 5, so Bob begins; then Bob's first roll.
    elsewhere = Tables(there, no_computers, ScriptedDice([2, 5, 1, 1, 1, 1, 1]))
    dice = ScriptedDice([3] * 5 + [4] * 5)
    tables = Tables(here, no_computers, dice)
    try:
        created = elsewhere.create(Setup((Seat("Ann"), Seat("Bob"))))
        table_id, bob = created.table.id, created.seat_tokens[1]
        assert bob is not None
        held = tables.get(table_id)  # this process holds the game at version 0
        assert elsewhere.act(table_id, bob, Roll(())).version == 1
        tables.heard(held.saved_id, 1)  # as the store tells every process
        # Tried on the old copy, the roll would have used the 3s before the store refused it.
        change = tables.act(table_id, bob, Roll(()))
        assert change.table.session.game.dice == (3, 3, 3, 3, 3)
        assert change.version == 2 and change.before == 1
        elsewhere_rolled = change.table.session.game.history[-2]
        assert isinstance(elsewhere_rolled, Rolled) and elsewhere_rolled.dice == (1, 1, 1, 1, 1)
    finally:
        here.close()
        there.close()


def test_hearing_of_a_version_the_copy_has_already_changes_nothing(home: Path) -> None:
    stores = Stores(home)
    tables = Tables(stores, no_computers, ScriptedDice([2, 5, 1, 1, 1, 1, 1, 6, 6, 6, 6, 6]))
    try:
        created = tables.create(Setup((Seat("Ann"), Seat("Bob"))))
        bob = created.seat_tokens[1]
        assert bob is not None
        first = tables.act(created.table.id, bob, Roll(()))
        tables.heard(first.table.saved_id, first.version)  # its own change, told back
        second = tables.act(created.table.id, bob, Roll(()))
        assert second.table is first.table  # the copy held is used: nothing was read again
        assert second.table.session.game.dice == (6, 6, 6, 6, 6) and second.version == 2
    finally:
        stores.close()
