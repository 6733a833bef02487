"""The web app: pages, the JSON API and the live WebSocket of every table.

The server rolls every die; a page only says which dice to hold and which box to fill, and
only for the seat whose token it holds. Computer seats play on the server. Every change is
kept in the store, version-checked, before it is answered or shown.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from kismet_dice.game import DiceSource
from kismet_dice.session import COMPUTER_PACE
from kismet_dice.strategy import Computer
from kismet_dice.web import errors, guard
from kismet_dice.web.deps import SEAT_TOKEN_HEADER
from kismet_dice.web.expiry import Expiry
from kismet_dice.web.limits import BodyLimit
from kismet_dice.web.routers import games, hall, invite, pages, stats
from kismet_dice.web.service import Settings, WebService
from kismet_dice.web.stopping import AnsweredWhileStopping

DESCRIPTION = f"""
Kismet at a web table. Create a game with `POST /api/games`: the answer holds the game's plain
link (for watchers) and one invitation link per human seat, whose fragment `#seat=...` carries
the seat's secret token. Acting for a seat (`roll`, `score`, `advice`, `hall`) needs that token
in the `{SEAT_TOKEN_HEADER}` header. The server rolls the dice; a client sends only the positions
to hold (0-4) and the box to fill. Computer seats (easy, medium, hard, target, win) have no link: they play on
the server, one action at a time, and every action reaches the pages like anyone's.

Advice (`POST /api/games/{{id}}/advice`) ranks every option of the dice on the table by the
expected final total; asking marks the game assisted for good, and an assisted game cannot enter
the Hall of Fame. Late in a game (at most eight open boxes) each option also gets its chance of a
Hall of Fame total, one more than the list's tenth entry: `POST /api/games/{{id}}/advice/chances`
works it out when the advice's `hall.pending` says it is not known yet. Once a game is over,
`GET /api/games/{{id}}/proficiency` tells how many points each player's choices were expected to
cost against perfect play, and which cost most.

Live updates: open a WebSocket at `/api/games/{{id}}/live`. The server first sends
`{{"type": "state", "game": <GameView>, "sent": T}}`, the whole game. After every change it sends
`{{"type": "update", "since": V0, "version": V1, "events": [...], "news": [...], "turn": <TurnView>,
"players": [<PlayerView>...], "sent": T}}` (T: the server's clock, which a page counts a turn's time
down by): the new events (each with its `text`), other news in words (Hall
of Fame outcomes), the turn as it is now, and the sheets the change touched. A page that holds
version V0 applies it and then holds V1; a page whose version is not `since` has missed something
and sends `{{"type": "sync"}}` to get the whole game again. A page may also act over the socket:
`{{"type": "roll", "token": ..., "hold": [0, 2]}}` or `{{"type": "score", "token": ..., "box":
"FULL_HOUSE"}}`; a refused message gets `{{"type": "error", "status": 409, "error": ...}}` and the
connection stays open. A page that falls behind (it does not read what it is sent) is closed with
code 1013; reconnecting gives the whole game again. Each game and each server has a cap on open
pages; a page over it is closed with code 1013 and a reason.

Chances of winning: where the server holds the futures of every position, `GET /api/games/{{id}}`
gives each player's `win_chance` (ties shared), and after each change (and when a page opens) the
pages get `{{"type": "chances", "version": V, "win_chances": [...], "model": "what they assume"}}`
once worked out; otherwise `win_chance` is null and no such message comes.

Presence: a page that holds a seat's token sends `{{"type": "hello", "token": ...}}` (checked like
any action); the game view and every update carry `connected`, the seats whose player has a page
open, and each arrival or departure sends `{{"type": "presence", "connected": [0, 2]}}`. Once a
game is over, `POST /api/games/{{id}}/again` (a seat's token) starts one with the same players in
the same seats: its seat links go to whoever asked, and every page of the old game gets
`{{"type": "again", "watch_link": ..., "seat_link": ...}}`, where `seat_link` is the new game's link
of the seat that page said hello for (each page gets only its own seat's link; a watcher gets
null) and the page moves there.

A person may leave a game for good with `POST /api/games/{{id}}/resign` (their seat's token), in
their turn or not: every open box of their sheet gets a 0 and they take no more turns; the game
goes on for the others, and ends there if no person with an open box is left (only computers, or
nobody). The event (`"kind": "resigned"`, with the `zeros`) is told like any other.

Every refusal is a 4xx answer with a JSON body `{{"error": "what was wrong"}}`; the game is unchanged.
`GET /api/limits` gives the limits a page must respect.

A public server protects itself: state-changing requests and WebSockets from pages of another
site (by their `Origin`) are refused with 403 (a WebSocket: closed with code 1008); creating games
and acting are rate-limited per client address, answered over the rate with 429 and `Retry-After`
(a WebSocket action gets `{{"type": "error", "status": 429, ...}}` and stays open); unfinished
games untouched for a while expire. `GET /api/limits` gives the rates and the expiry too.
"""


def create_app(
    home: Path | None = None,
    dice: DiceSource | None = None,
    *,
    computer: Computer | None = None,
    pace: float = COMPUTER_PACE,
    database: str | None = None,
    protections: guard.Protections | None = None,
) -> FastAPI:
    """The web app, keeping its games and Hall of Fame in the store at ``home``, rolling ``dice``.

    ``home`` defaults to the user's data directory (or ``$KISMET_HOME``); ``dice`` to the system's
    generator; ``computer`` (its players, advice and proficiency) to one that loads its table from
    the user's data; ``pace`` is the pause in seconds before each action of a computer player.
    ``database`` is a site's PostgreSQL URL (default ``$KISMET_DATABASE_URL``, else the file at ``home``).
    The service is made when the app starts: a store that cannot be used stops it then.
    ``protections`` (origins, rate limits, expiry) default to a public site's.
    """
    settings = Settings(home, dice, computer, pace, database)
    protected = protections if protections is not None else guard.Protections()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service = WebService(settings)
        app.state.service = service
        service.start()
        expiry = Expiry(service.tables, protected.expire_days, protected.expire_every, service.store_thread)
        expiry.start()
        try:
            yield
        finally:
            await expiry.stop()
            await service.stop()

    # No /docs or /redoc: their pages load scripts from a CDN. The schema is at /openapi.json.
    app = FastAPI(
        title="Kismet", version="2", description=DESCRIPTION, lifespan=lifespan, docs_url=None, redoc_url=None
    )
    app.add_middleware(BodyLimit)
    app.add_middleware(AnsweredWhileStopping)
    guard.install(app, protected)  # after the other middleware: its headers go on their answers too
    errors.install(app)
    app.include_router(games.router)
    app.include_router(hall.router)
    app.include_router(pages.router)
    app.include_router(invite.router)
    app.include_router(stats.router)
    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")
    return app


# --- several worker processes (kismet serve --workers N) --------------------------------------

PACE_VARIABLE = "KISMET_PACE"
"""The pause before each computer action, for apps made by :func:`app_from_environment`."""
PROTECTIONS_VARIABLE = "KISMET_PROTECTIONS"
"""The server's protections as JSON (:meth:`~kismet_dice.web.guard.Protections.to_json`), likewise."""


def app_from_environment() -> FastAPI:
    """The app as a worker process makes it (uvicorn's ``factory=True``), from the environment its
    parent set: the store (``$KISMET_DATABASE_URL``, else the file in ``$KISMET_HOME``) and the
    computer's pace (``$KISMET_PACE``) and the protections (``$KISMET_PROTECTIONS``, JSON)."""
    pace = os.environ.get(PACE_VARIABLE)
    protections = os.environ.get(PROTECTIONS_VARIABLE)
    return create_app(
        pace=COMPUTER_PACE if not pace else float(pace),
        protections=None if not protections else guard.Protections.from_json(protections),
    )
