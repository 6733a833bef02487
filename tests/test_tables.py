"""The server's tables held in memory: a shortcut to the store, bounded, never the authority."""

from __future__ import annotations

from pathlib import Path

from kismet_dice.game import Roll, ScriptedDice
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
