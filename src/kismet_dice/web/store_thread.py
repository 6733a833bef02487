"""The one thread where a server process reads, changes and draws its tables.

A store may be slow or away for a while (a site's PostgreSQL restarting, a network that drops
packets): a call to it must never hold up the event loop, which serves every page, static file,
``/api/limits`` and live socket of the process. So every piece of work that touches the tables,
and the views drawn from them (which the tables' changes keep up to date), runs on this thread,
one at a time and in the order asked: the tables stay as single-threaded as they were on the loop.

A request waits for its work at most :data:`DEADLINE` seconds and is then answered 503. Work that
had not begun by then is dropped: it changed nothing. Work already under way (a store that stopped
answering in the middle of a call) is left to end on its own; whatever it keeps reaches the
table's pages like any change.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Final, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

DEADLINE: Final = 2.0
"""The longest a request waits for the store before it is answered 503 ("try again")."""


class StoreNotAnswering(Exception):
    """The store did not answer within :data:`DEADLINE` seconds."""


class StoreThread:
    """Runs work on one daemon thread of its own, in the order it is handed in.

    A daemon thread, and never joined: a call stuck in a store that does not answer must not hold
    up the end of the server (the process ends, and the store drops what it had not committed).
    """

    def __init__(self, deadline: float = DEADLINE, name: str = "kismet-store") -> None:
        self.deadline = deadline
        self._work: queue.SimpleQueue[tuple[Future[object], Callable[[], object]] | None] = (
            queue.SimpleQueue()
        )
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def submit(self, work: Callable[[], T]) -> Future[T]:
        """Queue ``work``; the future of its result. Cancelling the future before the work begins
        drops it."""
        future: Future[T] = Future()
        self._work.put((future, work))  # type: ignore[arg-type]
        return future

    def post(self, work: Callable[[], object], what: str) -> None:
        """Queue ``work`` that nobody waits for; a failure is logged as ``what`` failing."""

        def logged(done: Future[object]) -> None:
            if not done.cancelled() and done.exception() is not None:
                log.warning("%s failed: %s", what, done.exception())

        self.submit(work).add_done_callback(logged)

    async def run(self, work: Callable[[], T]) -> T:
        """``work``'s result, waited for without blocking the event loop; :class:`StoreNotAnswering`
        after :attr:`deadline` seconds (then work that had not begun never runs)."""
        future = self.submit(work)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), self.deadline)
        except TimeoutError:
            future.cancel()  # dropped if it had not begun; left to end if it had
            raise StoreNotAnswering(
                f"the game store did not answer within {self.deadline:.0f} seconds; try again in a moment"
            ) from None

    def stop(self) -> None:
        """End the thread once the work queued before this is done (not waited for)."""
        self._work.put(None)

    def _serve(self) -> None:
        while True:
            item = self._work.get()
            if item is None:
                return
            future, work = item
            if not future.set_running_or_notify_cancel():
                continue  # its request gave up waiting: it never ran, so it changed nothing
            try:
                result = work()
            except BaseException as error:
                future.set_exception(error)
            else:
                future.set_result(result)
