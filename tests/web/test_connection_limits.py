"""The limits on each connection of a real ``kismet serve``, before a request reaches the app: a
head too large or too slow is refused and closed, and one address cannot hold every place."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator

import httpx2
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from kismet_dice.web.connections import CONNECTIONS_PER_ADDRESS, HEAD_SECONDS, MAX_HEAD_BYTES
from kismet_dice.web.live import PAGES_PER_ADDRESS, PAGES_PER_TABLE
from tests.support.processes import Server

# Most of these tests' time is spent waiting (see tests/conftest.py).
pytestmark = pytest.mark.waits

GUARD_SECONDS = 30.0
"""A socket's longest wait for an answer (a guard against a server that never answers)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Without proxy headers every connection from 127.0.0.1 is a client's, and counted as one.
    started = Server(tmp_path_factory.mktemp("home"), "--no-proxy-headers")
    try:
        yield started
    finally:
        started.stop()


def connection(server: Server, source: str = "127.0.0.1") -> socket.socket:
    """A connection to ``server`` from the loopback address ``source`` (any 127.x.y.z is this machine)."""
    opened = socket.socket()
    opened.settimeout(GUARD_SECONDS)
    opened.bind((source, 0))
    opened.connect(("127.0.0.1", server.port))
    return opened


def answer(opened: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    while chunk := opened.recv(65536):
        received += chunk
    return received


def limits_answered(server: Server, source: str = "127.0.0.1") -> bool:
    transport = httpx2.HTTPTransport(local_address=source)
    with httpx2.Client(base_url=server.url, transport=transport, timeout=GUARD_SECONDS) as client:
        return client.get("/api/limits").status_code == 200


def test_a_head_larger_than_the_limit_is_refused_with_431_and_closed(server: Server) -> None:
    opened = connection(server)
    opened.sendall(b"GET /api/limits HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    padding = b"X-Padding: " + b"a" * 1000 + b"\r\n"
    try:
        for _ in range(4 * MAX_HEAD_BYTES // len(padding)):
            opened.sendall(padding)
    except (BrokenPipeError, ConnectionResetError):
        pass  # closed while we were still sending: what the limit is for
    refused = answer(opened)
    opened.close()
    assert refused.startswith(b"HTTP/1.1 431 ")
    assert limits_answered(server)


def test_a_head_of_ordinary_size_with_a_body_is_served(server: Server) -> None:
    with httpx2.Client(base_url=server.url, timeout=GUARD_SECONDS) as client:
        created = client.post(
            "/api/games", json={"players": [{"name": "Ann"}]}, headers={"X-Padding": "a" * 8000}
        )
    assert created.status_code == 201


def test_a_head_sent_too_slowly_is_closed_with_408_and_others_are_served_meanwhile(server: Server) -> None:
    opened = connection(server)
    started = time.monotonic()
    opened.sendall(b"GET /api/limits HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the blank line
    assert limits_answered(server)
    refused = answer(opened)
    opened.close()
    assert refused.startswith(b"HTTP/1.1 408 ")
    assert time.monotonic() - started >= HEAD_SECONDS - 0.5  # not closed before its time was up


def test_one_address_holding_every_place_it_may_leaves_room_for_the_others(server: Server) -> None:
    held = [connection(server) for _ in range(CONNECTIONS_PER_ADDRESS)]
    try:
        for opened in held:
            opened.sendall(b"GET / HTTP/1.1\r\n")  # half-sent requests, held open
        one_more = connection(server)
        assert answer(one_more).startswith(b"HTTP/1.1 503 ")
        one_more.close()
        # Another address is served as usual.
        assert limits_answered(server, source="127.0.0.2")
    finally:
        for opened in held:
            opened.close()
    # Once they are closed, the first address is served again.
    deadline = time.monotonic() + GUARD_SECONDS
    while True:
        try:
            if limits_answered(server):
                break
        except httpx2.TransportError:
            pass
        assert time.monotonic() < deadline, "the address was not served again"
        time.sleep(0.1)


def test_one_address_may_open_only_so_many_live_pages_and_another_still_may(server: Server) -> None:
    games = [
        server.http.post("/api/games", json={"players": [{"name": "Ann"}]}).json()["id"]
        for _ in range(PAGES_PER_ADDRESS // PAGES_PER_TABLE + 1)
    ]
    with contextlib.ExitStack() as opened:
        for number in range(PAGES_PER_ADDRESS):
            address = f"ws://127.0.0.1:{server.port}/api/games/{games[number % len(games)]}/live"
            page = opened.enter_context(connect(address))
            assert json.loads(page.recv(timeout=GUARD_SECONDS))["type"] == "state"
        with connect(f"ws://127.0.0.1:{server.port}/api/games/{games[0]}/live") as one_more:
            with pytest.raises(ConnectionClosed):
                one_more.recv(timeout=GUARD_SECONDS)
            assert one_more.close_code == 1013
            assert (one_more.close_reason or "").startswith(
                f"{PAGES_PER_ADDRESS} pages are open from your address"
            )
        other = socket.create_connection(("127.0.0.1", server.port), source_address=("127.0.0.2", 0))
        with connect(f"ws://127.0.0.1:{server.port}/api/games/{games[0]}/live", sock=other) as elsewhere:
            assert json.loads(elsewhere.recv(timeout=GUARD_SECONDS))["type"] == "state"
