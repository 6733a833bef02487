"""The time of each person's turn at a table that gives one: when it runs out, the table plays it.

The deadlines are set on the store thread, as the turn is drawn (see ``WebService``), so every
view of a turn shows the same one; this clock belongs to the event loop and only waits for them.
A deadline is counted from when the turn began as the store keeps it, so a server that restarts
gives a turn only the time it had left, and where several processes serve one store they all
show the same deadline: the first whose clock runs out plays the turn and the others find it
over (the session refuses a turn that ended).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

Turn = tuple[int, int]
"""A person's turn, as ``Session.turn_key`` names it."""


class TurnClock:
    """One timer per table whose person's turn has a deadline; ``expire`` plays a turn whose time ran out."""

    def __init__(self, expire: Callable[[str, Turn], Coroutine[Any, Any, None]]) -> None:
        self._expire = expire
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._playing: set[asyncio.Task[None]] = set()

    def arm(self, table_id: str, turn: Turn, deadline: float) -> None:
        """Wait for ``deadline`` (seconds since 1970) to play ``turn`` of ``table_id``, instead of
        whatever the table waited for before."""
        self.stop(table_id)
        loop = asyncio.get_running_loop()
        self._timers[table_id] = loop.call_later(
            max(0.0, deadline - time.time()), self._run_out, table_id, turn
        )

    def stop(self, table_id: str) -> None:
        """No turn of ``table_id`` is timed any more (a computer's turn, or the game is over)."""
        timer = self._timers.pop(table_id, None)
        if timer is not None:
            timer.cancel()

    def timed(self, table_id: str) -> bool:
        return table_id in self._timers

    def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in self._playing:
            task.cancel()

    def _run_out(self, table_id: str, turn: Turn) -> None:
        self._timers.pop(table_id, None)
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(
            self._expire(table_id, turn), name=f"time out at {table_id}"
        )
        self._playing.add(task)  # held until done: the loop keeps only a weak reference to a task
        task.add_done_callback(self._playing.discard)
