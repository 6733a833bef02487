"""The web app: pages, the JSON API and the live WebSocket of every table.

The server rolls every die; a page only says which dice to hold and which box to fill, and
only for the seat whose token it holds. Computer seats play on the server. Every change is
saved, then pushed to every open page.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, TypeAdapter, ValidationError
from starlette.exceptions import HTTPException

from kismet_dice.game import DiceSource, HouseRules
from kismet_dice.session import COMPUTER_PACE, Seat
from kismet_dice.storage import HallEntry
from kismet_dice.strategy import Advisor, Computer
from kismet_dice.web.computer import ComputerTurns, Readiness, WhenReady
from kismet_dice.web.limits import MAX_MESSAGE_CHARACTERS, MAX_NAME_CHARACTERS, BodyLimit
from kismet_dice.web.store import StoreError, WebTables
from kismet_dice.web.tables import Table, TableError, Tables
from kismet_dice.web.views import (
    Advice,
    GameView,
    Level,
    ProficiencyView,
    game_view,
    option_view,
    proficiency_view,
)

log = logging.getLogger(__name__)

STATIC = Path(str(resources.files("kismet_dice.web").joinpath("static")))
MAX_SEATS = 6
DEFAULT_PACE = COMPUTER_PACE
"""Seconds between a computer player's actions: slow enough to follow, quick enough not to bore."""

SEAT_TOKEN_HEADER = "X-Seat-Token"

DESCRIPTION = f"""
Kismet at a web table. Create a game with `POST /api/games`: the answer holds the game's plain
link (for watchers) and one invitation link per human seat, whose fragment `#seat=...` carries
the seat's secret token. Acting for a seat (`roll`, `score`, `advice`, `hall`) needs that token
in the `{SEAT_TOKEN_HEADER}` header. The server rolls the dice; a client sends only the positions
to hold (0-4) and the box to fill. Computer seats (easy, medium, hard) have no link: they play on
the server, one action at a time, and every action reaches the pages like anyone's.

Advice (`POST /api/games/{{id}}/advice`) ranks every option of the dice on the table by the
expected final total; asking marks the game assisted for good, and an assisted game cannot enter
the Hall of Fame. Once a game is over, `GET /api/games/{{id}}/proficiency` tells how many points
each player's choices were expected to cost against perfect play, and which cost most.

Live updates: open a WebSocket at `/api/games/{{id}}/live`. The server sends
`{{"type": "state", "game": <GameView>}}` at once and after every change. A page may also act over
it: `{{"type": "roll", "token": ..., "hold": [0, 2]}}` or `{{"type": "score", "token": ...,
"box": "FULL_HOUSE"}}`; a refused message gets `{{"type": "error", "status": 409, "error": ...}}`
and the connection stays open. If a computer player cannot go on, every page of its game gets
such an error message too.

Every refusal is a 4xx answer with a JSON body `{{"error": "what was wrong"}}`; the game is unchanged.
"""


# At module level: FastAPI reads the endpoints' annotations in this module's namespace.
SeatToken = Annotated[str | None, Header(alias=SEAT_TOKEN_HEADER, max_length=200)]


class ErrorBody(BaseModel):
    error: str = Field(description="what was wrong, in words")


class SeatRequest(BaseModel):
    name: str = Field(max_length=MAX_NAME_CHARACTERS, description="1 to 24 characters once trimmed")
    computer: Level | None = Field(default=None, description="a computer player's level; null for a person")


class NewGameRequest(BaseModel):
    players: list[SeatRequest] = Field(min_length=1, max_length=MAX_SEATS, description="in seating order")
    zero_kismet_counts: bool = Field(
        default=False, description="house rule: a zero in the Kismet box counts as filled"
    )


class Invitation(BaseModel):
    seat: int
    name: str
    link: str = Field(description="the seat's link; whoever holds it plays the seat")


class NewGame(BaseModel):
    id: str
    watch_link: str = Field(description="the game's plain link: it shows the game, it cannot act")
    invitations: list[Invitation] = Field(description="one per human seat; computer seats have none")
    game: GameView


class RollRequest(BaseModel):
    hold: list[Annotated[int, Field(ge=0, le=4)]] = Field(
        default=[], max_length=5, description="positions (0-4) of the dice to keep"
    )


class ScoreRequest(BaseModel):
    box: str = Field(max_length=40, description="the box's name, e.g. FULL_HOUSE")


class SeatView(BaseModel):
    seat: int
    name: str


class HallRequest(BaseModel):
    name: str | None = Field(
        max_length=MAX_NAME_CHARACTERS, description="the name to enter under; null declines the prompt"
    )


class HallEntryView(BaseModel):
    rank: int
    name: str
    total: int
    date: datetime
    players: int


class HallAnswer(BaseModel):
    entry: HallEntryView | None = Field(
        description="the new entry; null if declined or no longer good enough"
    )
    game: GameView


class Rules(BaseModel):
    text: str = Field(description="the rules this program implements, in Markdown")


class RollMessage(BaseModel):
    type: Literal["roll"]
    token: str = Field(max_length=200)
    hold: list[Annotated[int, Field(ge=0, le=4)]] = Field(default=[], max_length=5)


class ScoreMessage(BaseModel):
    type: Literal["score"]
    token: str = Field(max_length=200)
    box: str = Field(max_length=40)


PageMessage = TypeAdapter(Annotated[RollMessage | ScoreMessage, Field(discriminator="type")])

REFUSALS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": why}
    for status, why in (
        (400, "the body is not JSON"),
        (401, "no seat token"),
        (403, "a seat token that is not this game's"),
        (404, "no such game"),
        (409, "an action the rules or the turn order do not allow now"),
        (413, "the body is too large"),
        (422, "a body that is JSON but not what this endpoint takes"),
        (503, "the game cannot be read or saved, or the computer cannot advise"),
    )
}


@dataclass
class Pages:
    """The open WebSockets of every table, to push each change to; ``view`` draws a table."""

    view: Callable[[Table], GameView]
    sockets: dict[str, set[WebSocket]] = field(default_factory=dict)

    def join(self, table_id: str, socket: WebSocket) -> None:
        self.sockets.setdefault(table_id, set()).add(socket)

    def leave(self, table_id: str, socket: WebSocket) -> None:
        watching = self.sockets.get(table_id, set())
        watching.discard(socket)
        if not watching:
            self.sockets.pop(table_id, None)

    def state(self, table: Table) -> dict[str, Any]:
        return {"type": "state", "game": self.view(table).model_dump(mode="json")}

    async def push(self, table: Table) -> None:
        message = self.state(table)
        for socket in list(self.sockets.get(table.id, ())):
            try:
                await socket.send_json(message)
            except Exception:
                # A page that went away; its own handler notices and leaves.
                self.leave(table.id, socket)

    async def tell(self, table_id: str, error: TableError) -> None:
        """Send every page of a table a refusal or failure that no request of theirs caused."""
        message = {"type": "error", "status": error.status, "error": error.message}
        for socket in list(self.sockets.get(table_id, ())):
            try:
                await socket.send_json(message)
            except Exception:
                self.leave(table_id, socket)

    async def push_all(self, tables: Tables) -> None:
        """Push every open table again (the computer's readiness shows on each)."""
        for table_id in list(self.sockets):
            try:
                table = tables.get(table_id)
            except TableError:
                continue
            await self.push(table)


def _hall_entry(entry: HallEntry) -> HallEntryView:
    return HallEntryView(
        rank=entry.rank, name=entry.name, total=entry.total, date=entry.date, players=entry.players
    )


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _validation_message(error: RequestValidationError | ValidationError) -> tuple[int, str]:
    problems = error.errors()
    if any(problem.get("type") == "json_invalid" for problem in problems):
        return 400, "the body is not valid JSON"
    parts = []
    for problem in problems:
        where = ".".join(str(part) for part in problem.get("loc", ()) if part != "body")
        parts.append(f"{where}: {problem.get('msg', 'invalid')}" if where else str(problem.get("msg")))
    return 422, "; ".join(parts) or "the request is not what this endpoint takes"


def create_app(
    home: Path | WebTables | None = None,
    dice: DiceSource | None = None,
    *,
    computer: Computer | None = None,
    pace: float = DEFAULT_PACE,
) -> FastAPI:
    """The web app, keeping its games and Hall of Fame in the storage at ``home``, rolling ``dice``.

    ``home`` defaults to the user's data directory (or ``$KISMET_HOME``); ``dice`` defaults to
    :class:`secrets.SystemRandom`; ``computer`` (its players, advice and proficiency) defaults to
    one that loads its table from the user's data; ``pace`` is the pause in seconds before each
    action of a computer player. Tests pass their own of each. Raises ``StoreError`` when the
    storage cannot be opened.
    """
    computer = computer if computer is not None else Computer()
    store = home if isinstance(home, WebTables) else WebTables(home)
    tables = Tables(store, lambda level: WhenReady(computer, level), dice)
    readiness = Readiness(computer, announce=lambda: pages.push_all(tables))
    pages = Pages(lambda table: game_view(table, readiness.state))
    turns = ComputerTurns(tables, readiness, pages.push, pages.tell, pace)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Advice and proficiency come at every table: have the computer ready before they are asked.
        readiness.start()
        # A computer whose turn it was when the server stopped plays on without waiting for a visitor.
        try:
            waiting = store.unfinished()
        except StoreError:
            waiting = ()  # the storage's trouble is reported by the first request that needs it
        for table_id in waiting:
            try:
                turns.follow(tables.get(table_id))
            except TableError:
                continue  # a game that no longer loads is reported when someone opens it
        yield
        turns.stop()

    app = FastAPI(title="Kismet", version="1", description=DESCRIPTION, lifespan=lifespan)
    app.add_middleware(BodyLimit)

    def follow(table: Table) -> Table:
        """A table someone looked at: if a computer has the turn (after a restart, say), it plays."""
        turns.follow(table)
        return table

    view = pages.view

    async def advisor_for(table: Table) -> Advisor:
        """The advisor; if it has to be loaded first, the table's pages are told it is getting ready."""
        if readiness.state != "ready":
            readiness.start()
            await pages.push(table)
        return await readiness.advisor()

    @app.exception_handler(TableError)
    async def refused(request: Request, error: TableError) -> JSONResponse:
        return _error(error.status, error.message)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        return _error(*_validation_message(error))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        return _error(error.status_code, str(error.detail))

    @app.exception_handler(Exception)
    async def failed(request: Request, error: Exception) -> JSONResponse:
        # The operator's log gets the traceback; the person gets one line.
        log.error("failed on %s %s", request.method, request.url.path, exc_info=error)
        return _error(500, "the server failed to do that; the game is as it was before")

    index = (STATIC / "index.html").read_text(encoding="utf-8")

    for path in ("/", "/games/{table_id}", "/rules", "/hall"):

        @app.get(path, include_in_schema=False)
        async def page() -> HTMLResponse:
            # One page for every address; its script shows what the address asks for.
            return HTMLResponse(index)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.post("/api/games", status_code=201, responses=REFUSALS)
    async def new_game(request: NewGameRequest) -> NewGame:
        """Set up a game: the dice decide who begins; the answer holds each seat's invitation link."""
        seats = [Seat(seat.name, seat.computer) for seat in request.players]
        house_rules = HouseRules(zero_kismet_counts=request.zero_kismet_counts)
        created = tables.create(seats, house_rules)
        table = tables.get(created.id)
        answer = NewGame(
            id=table.id,
            watch_link=f"/games/{table.id}",
            invitations=[
                Invitation(seat=seat, name=name, link=f"/games/{table.id}#seat={token}")
                for seat, (name, token) in enumerate(zip(table.game.names, created.seat_tokens, strict=True))
                if token is not None
            ],
            game=view(table),
        )
        # A computer that won the roll-off begins once the answer is on its way.
        follow(table)
        return answer

    @app.get("/api/games/{table_id}", responses=REFUSALS)
    async def show_game(table_id: str) -> GameView:
        """The game as it stands."""
        table = follow(tables.get(table_id))
        return view(table)

    @app.get("/api/games/{table_id}/seat", responses=REFUSALS)
    async def seat(table_id: str, token: SeatToken = None) -> SeatView:
        """The seat a seat token plays."""
        table = tables.get(table_id)
        seat = table.seat_of(token)
        return SeatView(seat=seat, name=table.game.names[seat])

    @app.post("/api/games/{table_id}/roll", responses=REFUSALS)
    async def roll(table_id: str, request: RollRequest, token: SeatToken = None) -> GameView:
        """Roll every die not held, for the seat whose turn it is."""
        table = tables.roll(table_id, token, request.hold)
        await pages.push(table)
        return view(table)

    @app.post("/api/games/{table_id}/score", responses=REFUSALS)
    async def score(table_id: str, request: ScoreRequest, token: SeatToken = None) -> GameView:
        """Enter the dice in a box, ending the turn."""
        table = follow(tables.score(table_id, token, request.box))
        await pages.push(table)
        return view(table)

    @app.post("/api/games/{table_id}/advice", responses=REFUSALS)
    async def advice(table_id: str, token: SeatToken = None) -> Advice:
        """The computer's advice on your dice: every option with the expected final total, best first.

        Only for the seat whose turn it is, after its first roll. Asking marks the game assisted
        for good: an assisted game cannot enter the Hall of Fame. While the computer is getting
        ready (the first time on a server, a few seconds) the answer waits for it.
        """
        advisor = await advisor_for(tables.check_advice(table_id, token))
        table, options = tables.advise(table_id, token, advisor)
        await pages.push(table)
        dice = table.game.dice
        return Advice(options=[option_view(option, dice) for option in options], game=view(table))

    @app.get("/api/games/{table_id}/proficiency", responses=REFUSALS)
    async def proficiency(table_id: str) -> ProficiencyView:
        """Once the game is over: each player's expected points lost against perfect play, and the
        choices that cost most. Anyone with the game's link may ask."""
        advisor = await advisor_for(tables.check_proficiency(table_id))
        table, measured = tables.proficiency(table_id, advisor)
        return proficiency_view(table, measured)

    @app.post("/api/games/{table_id}/hall", responses=REFUSALS)
    async def enter_hall(table_id: str, request: HallRequest, token: SeatToken = None) -> HallAnswer:
        """Answer the Hall of Fame prompt for your seat once the game is over."""
        entry = tables.enter_hall(table_id, token, request.name)
        table = tables.get(table_id)
        await pages.push(table)
        return HallAnswer(entry=_hall_entry(entry) if entry else None, game=view(table))

    @app.get("/api/hall", responses={503: REFUSALS[503]})
    async def hall() -> list[HallEntryView]:
        """The Hall of Fame: the ten best game totals, best first."""
        return [_hall_entry(entry) for entry in tables.hall()]

    @app.get("/api/rules")
    async def rules() -> Rules:
        """The rules of Kismet as this program plays them."""
        return Rules(text=resources.files("kismet_dice").joinpath("RULES.md").read_text(encoding="utf-8"))

    async def _act(table_id: str, text: str | None) -> tuple[int, str] | None:
        """Carry out one message from a page; the refusal (status, words) if it is refused."""
        if text is None:
            return 400, "send JSON text, not binary data"
        if len(text) > MAX_MESSAGE_CHARACTERS:
            return 413, f"a message has at most {MAX_MESSAGE_CHARACTERS} characters"
        try:
            message = PageMessage.validate_json(text)
        except ValidationError as error:
            return _validation_message(error)
        try:
            if isinstance(message, RollMessage):
                table = tables.roll(table_id, message.token, message.hold)
            else:
                table = follow(tables.score(table_id, message.token, message.box))
        except TableError as error:
            return error.status, error.message
        await pages.push(table)
        return None

    @app.websocket("/api/games/{table_id}/live")
    async def live(socket: WebSocket, table_id: str) -> None:
        await socket.accept()
        try:
            table = tables.get(table_id)
        except TableError as error:
            await socket.send_json({"type": "error", "status": error.status, "error": error.message})
            await socket.close(code=1008)
            return
        pages.join(table.id, socket)
        follow(table)
        try:
            await socket.send_json(pages.state(table))
            while True:
                incoming = await socket.receive()
                if incoming["type"] == "websocket.disconnect":
                    return
                refusal = await _act(table_id, incoming.get("text"))
                if refusal is not None:
                    await socket.send_json({"type": "error", "status": refusal[0], "error": refusal[1]})
        except WebSocketDisconnect:
            return
        finally:
            pages.leave(table_id, socket)

    return app
