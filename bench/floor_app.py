"""The reference of ``bench_web.py``: the same requests answered by a FastAPI app that keeps no game.

It takes the bodies and the seat header the real routes take (parsed by pydantic, as there) and
answers each action with a fixed game view of a mid-game answer's size, alternating a roll and
an entry. What it costs per request is what serving an action costs on this machine before any
game is played, kept, drawn or told: the server's figures are read against it.
"""

from __future__ import annotations

import itertools
import json
from typing import Annotated

from fastapi import FastAPI, Header
from fastapi.responses import Response
from pydantic import BaseModel

app = FastAPI(docs_url=None, redoc_url=None)
_numbers = itertools.count(1)
FILLER = "x" * 6000  # an answer mid-game is some kilobytes: the events told so far and the sheets


class RollRequest(BaseModel):
    hold: list[int] = []


class ScoreRequest(BaseModel):
    box: str


class PlayerRequest(BaseModel):
    name: str


class NewGameRequest(BaseModel):
    players: list[PlayerRequest]


def _view(rolls_left: int) -> bytes:
    sheet = [{"box": "ONES", "option": 1}]
    players = [{"sheet": sheet}, {"sheet": sheet}]
    view = {"over": False, "rolls_left": rolls_left, "current_player": 0, "players": players, "x": FILLER}
    return json.dumps(view).encode()


ROLLED, NEW_TURN = _view(2), _view(3)
Token = Annotated[str | None, Header(alias="X-Seat-Token", max_length=200)]


@app.post("/api/games", status_code=201)
async def new_game(request: NewGameRequest) -> dict[str, object]:
    game = f"g{next(_numbers)}"
    return {"id": game, "invitations": [{"link": f"/games/{game}#seat={n}"} for n in range(2)]}


@app.get("/api/games/{game_id}")
async def game(game_id: str) -> Response:
    return Response(NEW_TURN, media_type="application/json")


@app.post("/api/games/{game_id}/roll")
async def roll(game_id: str, request: RollRequest, token: Token = None) -> Response:
    return Response(ROLLED, media_type="application/json")


@app.post("/api/games/{game_id}/score")
async def score(game_id: str, request: ScoreRequest, token: Token = None) -> Response:
    return Response(NEW_TURN, media_type="application/json")
