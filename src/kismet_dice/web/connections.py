"""Each connection's limits, below the app, where uvicorn reads the bytes.

The app's own limits (a body's size, the rates, the live pages) apply once a request has arrived;
these keep a client from holding the server before that:

- a request's head (its request line and headers) must arrive whole within :data:`HEAD_SECONDS`
  and hold at most :data:`MAX_HEAD_BYTES`, else 408 or 431 and the connection is closed (a head
  sent a byte at a time, or headers by the hundred megabytes, cost the server a place and memory);
- one client address may hold at most :data:`CONNECTIONS_PER_ADDRESS` connections of a process at
  once; one more is answered 503 and closed, so one visitor cannot take the places of everyone.
  A connection from a trusted proxy (``--forwarded-allow-ips``, with ``--proxy-headers``) is not
  counted: its clients are many, and the proxy keeps its own limits. A connection that becomes a
  live page is counted by the pages' own cap per address instead (see :mod:`.live`).

``kismet serve`` gives uvicorn :class:`GuardedHttp` as its HTTP protocol.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar, Final

from uvicorn.middleware.proxy_headers import _TrustedHosts
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

MAX_HEAD_BYTES: Final = 32 * 1024
"""The largest request head: a browser's, cookies and all, is a kilobyte or two."""

HEAD_SECONDS: Final = 10.0
"""The longest a request's head may take to arrive, from its first byte (or from the connection's
opening, for the first request)."""

LINGER_SECONDS: Final = 2.0
"""How long a refused connection is kept for the client to read its answer before it is closed."""

CONNECTIONS_PER_ADDRESS: Final = 200
"""The most connections one client address may hold open to one process at once: a household or a
classroom behind one address opens a few dozen."""


def _answer(status: str, words: str) -> bytes:
    body = words.encode()
    return (
        f"HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    ).encode() + body


TOO_SLOW: Final = _answer(
    "408 Request Timeout", f"a request's headers must arrive within {HEAD_SECONDS:.0f} seconds"
)
TOO_LARGE: Final = _answer(
    "431 Request Header Fields Too Large", f"a request's headers may hold {MAX_HEAD_BYTES // 1024} KB at most"
)
TOO_MANY: Final = _answer(
    "503 Service Unavailable", f"{CONNECTIONS_PER_ADDRESS} connections are open from your address already"
)


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol with the limits above."""

    # Per process: one event loop serves every connection, so no lock is needed.
    _open: ClassVar[dict[str, int]] = {}
    _trusted: ClassVar[tuple[object, _TrustedHosts] | None] = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._counted: str | None = None
        self._refused = False
        self._reading_head = True
        self._head_bytes = 0
        self._head_timer: asyncio.TimerHandle | None = None
        address = self.client[0] if self.client else None
        if address is not None and not self._from_proxy(address):
            if self._open.get(address, 0) >= CONNECTIONS_PER_ADDRESS:
                # Closed at once (nothing was sent yet to be reset): a flood of refused connections
                # holds no place a moment longer.
                self._refuse(TOO_MANY, linger=False)
                return
            self._open[address] = self._open.get(address, 0) + 1
            self._counted = address
        self._time_head()

    def _from_proxy(self, address: str) -> bool:
        config = self.config
        if not config.proxy_headers:
            return False
        kept = GuardedHttp._trusted
        if kept is None or kept[0] is not config:  # parsed once per server, not per connection
            kept = GuardedHttp._trusted = (config, _TrustedHosts(config.forwarded_allow_ips))
        return address in kept[1]

    def connection_lost(self, exc: Exception | None) -> None:
        self._let_go()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self) -> None:
        # From here the connection is a live page's, counted by the pages' cap instead.
        self._let_go()
        super().handle_websocket_upgrade()

    def _let_go(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        address, self._counted = self._counted, None
        if address is not None:
            left = self._open.get(address, 1) - 1
            if left > 0:
                self._open[address] = left
            else:
                self._open.pop(address, None)

    def _time_head(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self.loop.call_later(HEAD_SECONDS, self._head_too_slow)

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self._reading_head:
            self._refuse(TOO_SLOW)

    def _refuse(self, answer: bytes, *, linger: bool = True) -> None:
        """Answer, send no more, and close once the client has read the answer (a lingering close:
        closing with the client's bytes still unread would reset the connection, and the answer
        could be lost). Whatever the client sends meanwhile is dropped unread by the parser."""
        if self.transport.is_closing() or self._refused:
            return
        self._refused = True
        self._reading_head = False
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        self.transport.write(answer)
        if linger and self.transport.can_write_eof():
            self.transport.write_eof()
            self.loop.call_later(LINGER_SECONDS, self.transport.close)
        else:
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # refused: read and dropped until the client closes or the linger ends
        super().data_received(data)
        # Counted after the parser has seen it: a chunk that ends the head (and begins the body)
        # has ended the head's reading. A head still unfinished after this many bytes is refused,
        # so no more than a chunk beyond the limit is ever held.
        if self._reading_head and not self.transport.is_closing():
            self._head_bytes += len(data)
            if self._head_bytes > MAX_HEAD_BYTES:
                self._refuse(TOO_LARGE)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if not self._reading_head:  # the next request on a kept-alive connection
            self._reading_head = True
            self._head_bytes = 0
            self._time_head()

    def on_headers_complete(self) -> None:
        self._reading_head = False
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        super().on_headers_complete()
