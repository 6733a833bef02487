"""The live pages of every table: each change encoded once and queued for every page.

Nothing that changes a game ever waits for a page. Each open page has its own bounded queue
and its own sender task; publishing only puts the encoded message on the queues. A page that
falls behind (its queue is full, or one send takes longer than :data:`SEND_SECONDS`) is closed:
it reconnects and is sent the game as it is then. The number of pages per table and per
server is capped, so no visitor can make the server hold unbounded queues.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Final

from starlette.websockets import WebSocket

log = logging.getLogger(__name__)

QUEUE: Final = 64
"""Messages a page may have waiting before it is taken to have fallen behind."""

SEND_SECONDS: Final = 5.0
"""The longest one message may take to reach a page before the page is closed (give or take
:data:`WATCH_SECONDS`)."""

WATCH_SECONDS: Final = 1.0
"""How often the pages' sends are looked at for one that takes too long."""

PAGES_PER_TABLE: Final = 32
"""The most pages open on one table (players and watchers)."""

PAGES: Final = 2000
"""The most pages open on one server."""

PAGES_PER_ADDRESS: Final = 100
"""The most pages open on one server from one client address: room for a classroom behind one
address, while one visitor opening pages by the thousand cannot take the server's every place
and close out everyone else."""

# WebSocket close codes (RFC 6455 and the IANA registry).
TRY_AGAIN_LATER: Final = 1013
POLICY: Final = 1008


class Refused(Exception):
    """A page that may not join: too many open already. ``code`` and the message are its close."""

    def __init__(self, message: str, code: int = TRY_AGAIN_LATER) -> None:
        super().__init__(message)
        self.code = code


@dataclass(eq=False)
class Page:
    """One open page: its socket, its queue of encoded messages, and the task reading from it."""

    table_id: str
    socket: WebSocket
    reader: asyncio.Task[None] | None
    address: str = ""
    """The client address the page was opened from."""
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(QUEUE))
    sender: asyncio.Task[None] | None = None
    closing: str | None = None
    seat: int | None = None
    """The seat this page plays, once it said hello with that seat's token (presence)."""
    sending_since: float | None = None
    """When the message on its way to the page was handed to its socket (the loop's clock)."""


class Hub:
    """Every open page of the server, by table."""

    def __init__(
        self, per_table: int = PAGES_PER_TABLE, most: int = PAGES, per_address: int = PAGES_PER_ADDRESS
    ) -> None:
        self._tables: dict[str, set[Page]] = {}
        self._count = 0
        self._per_table = per_table
        self._most = most
        self._per_address = per_address
        self._by_address: dict[str, int] = {}
        self._watch: asyncio.Task[None] | None = None

    @property
    def count(self) -> int:
        return self._count

    def pages(self, table_id: str) -> int:
        return len(self._tables.get(table_id, ()))

    def join(self, table_id: str, socket: WebSocket, address: str = "") -> Page:
        """A page from client ``address`` joins a table (its sender starts); :class:`Refused` when
        there are too many."""
        if self._by_address.get(address, 0) >= self._per_address:
            raise Refused(f"{self._per_address} pages are open from your address already; close some first")
        if self._count >= self._most:
            raise Refused("the server has too many open pages; try again later")
        if self.pages(table_id) >= self._per_table:
            raise Refused(f"this game has {self._per_table} open pages already; try again later")
        page = Page(table_id, socket, asyncio.current_task(), address)
        self._tables.setdefault(table_id, set()).add(page)
        self._count += 1
        self._by_address[address] = self._by_address.get(address, 0) + 1
        loop = asyncio.get_running_loop()
        page.sender = loop.create_task(self._send(page), name=f"page of {table_id}")
        # One watch for every page of the loop (a test client's loop may have ended with its own).
        if self._watch is None or self._watch.done() or self._watch.get_loop() is not loop:
            self._watch = loop.create_task(self._watch_sends(), name="pages' sends")
        return page

    def leave(self, page: Page) -> None:
        pages = self._tables.get(page.table_id)
        if pages is None or page not in pages:
            return
        pages.discard(page)
        self._count -= 1
        left = self._by_address[page.address] - 1
        if left:
            self._by_address[page.address] = left
        else:
            del self._by_address[page.address]
        if not pages:
            del self._tables[page.table_id]
        if page.sender is not None and page.sender is not asyncio.current_task():
            page.sender.cancel()

    def send(self, page: Page, text: str) -> None:
        """Queue one message for one page."""
        try:
            page.queue.put_nowait(text)
        except asyncio.QueueFull:
            self._drop(page, "this page fell behind the game; reconnecting shows it as it is")

    def publish(self, table_id: str, text: str) -> None:
        """Queue an encoded message for every page of a table; never waits."""
        for page in list(self._tables.get(table_id, ())):
            self.send(page, text)

    def every(self, table_id: str) -> tuple[Page, ...]:
        """The open pages of a table, for a message each page is sent its own version of."""
        return tuple(self._tables.get(table_id, ()))

    def connected(self, table_id: str) -> list[int]:
        """The seats of a table whose player has a page open, in seat order. (Also read by the
        store thread as it draws a view: the set is copied at once, which the loop cannot
        interrupt, rather than iterated while the loop may change it.)"""
        pages = tuple(self._tables.get(table_id, ()))
        return sorted({page.seat for page in pages if page.seat is not None})

    def tables(self) -> tuple[str, ...]:
        return tuple(self._tables)

    def _drop(self, page: Page, reason: str) -> None:
        """Stop serving a page that fell behind: its reader ends, which closes the connection."""
        if page.closing is not None:
            return
        page.closing = reason
        log.info("closing a page of table %s: %s", page.table_id, reason)
        self.leave(page)
        if page.reader is not None and not page.reader.done():
            page.reader.cancel()

    async def _send(self, page: Page) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                text = await page.queue.get()
                # The watch below closes a page whose send takes too long. A deadline per message
                # (asyncio.timeout) cost a timer set and cancelled for every page at every action.
                page.sending_since = loop.time()
                try:
                    await page.socket.send_text(text)
                except Exception:
                    # The page went away; its reader notices and leaves.
                    self._drop(page, "the page went away")
                    return
                page.sending_since = None
        except asyncio.CancelledError:
            pass

    async def _watch_sends(self) -> None:
        """Every :data:`WATCH_SECONDS`, close the pages whose message has been on its way longer
        than :data:`SEND_SECONDS` (a page that does not read, with the buffers toward it full)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            now = loop.time()
            for pages in list(self._tables.values()):
                for page in list(pages):
                    if page.sending_since is not None and now - page.sending_since > SEND_SECONDS:
                        self._drop(
                            page, f"a message took more than {SEND_SECONDS:.0f} seconds to reach this page"
                        )

    async def close(self) -> None:
        """Close every page (the server is stopping)."""
        if self._watch is not None:
            self._watch.cancel()
        every = [page for pages in self._tables.values() for page in pages]
        for page in every:
            self.leave(page)

        async def close(page: Page) -> None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(page.socket.close(code=1001), 1.0)

        # All at once: a page that does not read costs its second, not a second for every page.
        await asyncio.gather(*(close(page) for page in every))
