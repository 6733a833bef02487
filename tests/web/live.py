"""Following a game over its WebSocket until something has happened."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

View = dict[str, Any]


def wait_for(socket: Any, condition: Callable[[View], bool], after: int = -1) -> View:
    """The first pushed state newer than version ``after`` for which ``condition`` holds.

    A message saying the computer stopped fails the test at once instead of leaving it waiting.
    """
    while True:
        message = socket.receive_json()
        assert message["type"] == "state", message
        view: View = message["game"]
        if view["version"] > after and condition(view):
            return view


def turn_of(seat: int) -> Callable[[View], bool]:
    return lambda view: view["current_player"] == seat or view["over"]
