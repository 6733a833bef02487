"""Unfinished web games nobody has touched for a while are deleted: at start, then periodically.

Finished games stay (their pages and verdicts are still shown), and so does the Hall of Fame; a
terminal player's saved games are theirs and are never touched. Several processes may do this
at once: each deletion is one statement on games untouched since a moment, so running it twice
deletes nothing twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime, timedelta

from kismet_dice.session.tables import Tables
from kismet_dice.web.store_thread import StoreThread

log = logging.getLogger(__name__)


def expire_once(tables: Tables, days: float) -> int:
    """Delete the unfinished web games untouched for ``days``; how many there were. Logged."""
    before = datetime.now(UTC) - timedelta(days=days)
    count = tables.expire(before)
    log.log(
        logging.INFO if count else logging.DEBUG,
        "%d unfinished web game(s) untouched since %s expired",
        count,
        before.isoformat(timespec="seconds"),
    )
    return count


class Expiry:
    """Expire games now (so a server starts clean) and then every ``every`` seconds, until stopped.
    The tables are the store thread's: the deletions run there, and nothing waits for them."""

    def __init__(self, tables: Tables, days: float, every: float, thread: StoreThread) -> None:
        self._tables = tables
        self._thread = thread
        self._days = days
        self._every = every
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Expire once now, then start the periodic task (on the running loop). ``days`` 0: never."""
        if self._days <= 0:
            return
        self._thread.submit(self._expire)
        self._task = asyncio.get_running_loop().create_task(self._periodically())

    def _expire(self) -> None:  # on the store thread
        try:
            expire_once(self._tables, self._days)
        except Exception:
            # The store's trouble is the requests' to report; the next look may well succeed.
            log.warning("expired games could not be deleted just now", exc_info=True)

    async def _periodically(self) -> None:
        while True:
            await asyncio.sleep(self._every)
            await asyncio.wrap_future(self._thread.submit(self._expire))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
