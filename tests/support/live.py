"""Following a game over its WebSocket as a page does: the whole game on connect, then each change."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

View = dict[str, Any]


class Socket(Protocol):
    """What a page needs of its socket (the test client's WebSocket session has it)."""

    def receive_json(self) -> Any: ...

    def send_json(self, data: Any) -> None: ...


class LiveGame:
    """The game as a page holds it: the ``state`` it was sent, with every ``update`` applied.

    Updates are applied exactly as the page script (``static/table.js``, ``update()``) does: an
    update no newer than the state is ignored; one that does not extend the state's version
    (the page missed something) makes the page send ``{"type": "sync"}``; otherwise the turn,
    the version and the touched sheets replace the state's and the new events are appended.
    A ``state`` older than the one held is ignored, as the page's ``render()`` does.
    """

    def __init__(self, socket: Socket) -> None:
        self.socket = socket
        self.state: View | None = None
        self.news: list[str] = []
        """Every update's news, in the order received."""
        self.messages: list[dict[str, Any]] = []
        """Every message received, as sent."""
        self.syncs = 0
        """How often this page found a gap and asked for the whole game."""

    def receive(self) -> dict[str, Any]:
        """Read one message and apply it; the message.

        An error message fails the test at once (a computer that stopped, say) instead of
        leaving it waiting for a state that never comes.
        """
        message: dict[str, Any] = self.socket.receive_json()
        self.messages.append(message)
        kind = message["type"]
        assert kind in ("state", "update"), message
        if kind == "state":
            game: View = message["game"]
            if self.state is None or game["version"] >= self.state["version"]:
                self.state = game
        else:
            self._update(message)
        return message

    def _update(self, change: dict[str, Any]) -> None:
        state = self.state
        if state is None or change["version"] <= state["version"]:
            return
        if change["since"] != state["version"]:
            self.syncs += 1
            self.socket.send_json({"type": "sync"})
            return
        touched = {player["seat"]: player for player in change["players"]}
        self.state = {
            **state,
            **change["turn"],
            "version": change["version"],
            "players": [touched.get(player["seat"], player) for player in state["players"]],
            "events": [*state["events"], *change["events"]],
        }
        self.news += change["news"]

    def next(self) -> View:
        """The state after the next message that changed it (a state or an applied update)."""
        while True:
            before = self.state
            self.receive()
            if self.state is not before and self.state is not None:
                return self.state

    def wait_for(self, condition: Callable[[View], bool], after: int = -1) -> View:
        """The first state newer than version ``after`` for which ``condition`` holds."""
        while True:
            view = self.next()
            if view["version"] > after and condition(view):
                return view


def turn_of(seat: int) -> Callable[[View], bool]:
    return lambda view: view["current_player"] == seat or view["over"]
