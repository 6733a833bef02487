"""A web app on a temporary directory, with dice the test decides."""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from kismet_dice.game import DiceSource
from kismet_dice.strategy import Computer
from kismet_dice.web import create_app


class QueuedDice:
    """Dice the test lines up as it goes; drawing from an empty queue fails the test."""

    def __init__(self, *faces: int) -> None:
        self._faces: deque[int] = deque(faces)

    def push(self, *faces: int) -> None:
        self._faces.extend(faces)

    def randint(self, a: int, b: int) -> int:
        assert self._faces, "the test lined up no more dice"
        return self._faces.popleft()

    @property
    def remaining(self) -> int:
        return len(self._faces)


def client(
    directory: Path, dice: DiceSource, computer: Computer | None = None, pace: float = 0.0
) -> TestClient:
    """The app on ``directory``, to be opened with ``with``: the app's service is made when it
    starts, and its event loop (where the computers play) lasts until the ``with`` ends."""
    app = create_app(directory, dice, computer=computer, pace=pace)
    return TestClient(app, raise_server_exceptions=False)


def new_game(
    web: TestClient, *names: str, computers: dict[str, str] | None = None, **options: Any
) -> dict[str, Any]:
    """A game of ``names``; ``computers`` maps the names of computer seats to their levels."""
    levels = computers or {}
    players = [{"name": name, "computer": levels.get(name)} for name in names]
    response = web.post("/api/games", json={"players": players, **options})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def seat_tokens(created: dict[str, Any]) -> list[str]:
    """The tokens of the invitation links, in seating order."""
    return [invitation["link"].split("#seat=", 1)[1] for invitation in created["invitations"]]


def state(web: TestClient, game_id: str) -> dict[str, Any]:
    response = web.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def seat(token: str) -> dict[str, str]:
    return {"X-Seat-Token": token}


def entries(view: dict[str, Any], seat_number: int) -> dict[str, int | None]:
    return {entry["box"]: entry["points"] for entry in view["players"][seat_number]["sheet"]}


def options(view: dict[str, Any]) -> dict[str, int]:
    current = view["players"][view["current_player"]]
    return {entry["box"]: entry["option"] for entry in current["sheet"] if entry["option"] is not None}


def faces(view: dict[str, Any]) -> list[int]:
    return [die["face"] for die in view["dice"]]


# A two-seat game to its second Kismet, move by move as (seat, endpoint, body): Ann's five fives
# in Kismet; Bob's 1 2 3 4 6, then a 5 for his 6, in Yarborough; Ann's five fives again.
SECOND_KISMET_MOVES: tuple[tuple[int, str, dict[str, Any]], ...] = (
    (0, "roll", {}),
    (0, "score", {"box": "KISMET"}),
    (1, "roll", {}),
    (1, "roll", {"hold": [0, 1, 2, 3]}),
    (1, "score", {"box": "YARBOROUGH"}),
    (0, "roll", {}),
    (0, "score", {"box": "FIVES"}),
)
