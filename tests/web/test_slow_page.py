"""A page that never reads what it is sent slows no action of its game, nor its computer seats:
the server drops it and plays on."""

from __future__ import annotations

import base64
import json
import os
import random
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from kismet_dice.strategy import Computer
from kismet_dice.web import create_app
from kismet_dice.web.service import WebService
from tests.support.server import serving

SYNCS = 3000
"""Sync requests the page sends: each is answered with the whole game, far more than the socket
buffers between the server and a page that does not read can hold."""


def call(address: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """One request; the answer's JSON (a refusal fails the test with its words)."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["X-Seat-Token"] = token
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(address + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{method} {path}: {error.code} {error.read().decode()}") from None


def frame(text: str) -> bytes:
    """A masked text frame, as a client sends it (RFC 6455)."""
    payload = text.encode()
    assert len(payload) < 126
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


@contextmanager
def never_reading_page(address: str, game_id: str) -> Iterator[socket.socket]:
    """A page that opens the game's live socket, asks for the whole game many times, and never
    reads any of it."""
    host, port = address.removeprefix("http://").split(":")
    page = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # A small window, so the server's buffers toward this page fill with fewer messages.
    page.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    page.connect((host, int(port)))
    try:
        key = base64.b64encode(os.urandom(16)).decode()
        page.sendall(
            (
                f"GET /api/games/{game_id}/live HTTP/1.1\r\nHost: {host}:{port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        # The handshake's answer is the last thing this page reads.
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = page.recv(1)
            assert chunk, "the server closed the connection during the handshake"
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 101"), answer
        # Sent without waiting for the server to take them, so the test never blocks here: once
        # the server drops the page, it reads no more of them.
        page.setblocking(False)
        requests = frame(json.dumps({"type": "sync"})) * SYNCS
        sent = 0
        while sent < len(requests):
            try:
                sent += page.send(requests[sent:])
            except BlockingIOError:
                break
        yield page
    finally:
        page.close()


def wait_until_dropped(service: WebService, pages: int) -> None:
    """Wait (within the test's timeout) until the hub serves only ``pages`` pages."""
    stopped = threading.Event()
    while service.hub.count > pages:
        stopped.wait(0.05)


def first_open_box(view: dict[str, Any], seat: int) -> str:
    box: str = next(entry["box"] for entry in view["players"][seat]["sheet"] if entry["points"] is None)
    return box


@pytest.mark.timeout(120)
def test_a_page_that_never_reads_does_not_slow_its_game(tmp_path: Path) -> None:
    app = create_app(tmp_path, random.Random(5), pace=0)
    with serving(app) as address:
        service: WebService = app.state.service
        created = call(address, "POST", "/api/games", {"players": [{"name": "Ann"}]})
        game_id = created["id"]
        token = created["invitations"][0]["link"].split("#seat=", 1)[1]
        with never_reading_page(address, game_id):
            view = created["game"]
            for _ in range(15):
                view = call(address, "POST", f"/api/games/{game_id}/roll", {"hold": []}, token)
                assert view["rolls_left"] == 2
                view = call(
                    address, "POST", f"/api/games/{game_id}/score", {"box": first_open_box(view, 0)}, token
                )
            assert view["over"] and all(entry["points"] is not None for entry in view["players"][0]["sheet"])
            # The page fell behind and was dropped: the hub holds no page of it any more.
            wait_until_dropped(service, 0)
            assert service.hub.pages(game_id) == 0
        assert call(address, "GET", f"/api/games/{game_id}") == view


@pytest.mark.timeout(120)
def test_a_computer_seat_plays_to_the_end_while_a_page_never_reads(
    tmp_path: Path, computer: Computer
) -> None:
    app = create_app(tmp_path, random.Random(9), computer=computer, pace=0)
    with serving(app) as address:
        service: WebService = app.state.service
        created = call(
            address, "POST", "/api/games", {"players": [{"name": "Ann"}, {"name": "Eve", "computer": "easy"}]}
        )
        game_id = created["id"]
        token = created["invitations"][0]["link"].split("#seat=", 1)[1]
        turns = 0
        with never_reading_page(address, game_id):
            view = call(address, "GET", f"/api/games/{game_id}")
            idle = threading.Event()
            while not view["over"]:
                if view["current_player"] != 0:
                    # Eve plays on the server; Ann looks again until it is her turn.
                    idle.wait(0.02)
                    view = call(address, "GET", f"/api/games/{game_id}")
                    continue
                call(address, "POST", f"/api/games/{game_id}/roll", {"hold": []}, token)
                box = first_open_box(view, 0)
                view = call(address, "POST", f"/api/games/{game_id}/score", {"box": box}, token)
                turns += 1
            wait_until_dropped(service, 0)
        assert turns == 15
        eve = [entry["points"] for entry in view["players"][1]["sheet"]]
        assert None not in eve
        assert service.hub.count == 0
