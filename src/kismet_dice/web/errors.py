"""One mapping from the game's, the session's and the store's own exceptions to HTTP statuses.

Every refusal reaches a client as ``{"error": "what was wrong"}`` with the status below, and
the game is as it was. Nothing that names a file or holds a traceback is ever sent: a failure
the mapping does not know is logged for the operator and answered with one plain line.
"""

from __future__ import annotations

import logging
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.exceptions import HTTPException

from kismet_dice.rules import IllegalAction
from kismet_dice.session import BadName, BadSetup, Unsaved
from kismet_dice.session.statistics import NoGames
from kismet_dice.session.tables import MissingSeatToken, NoSuchTable, WrongSeatToken
from kismet_dice.storage import StorageError
from kismet_dice.strategy import ComputerUnavailable
from kismet_dice.web.computer import STOPPING, Stopped
from kismet_dice.web.ratelimit import TooMany
from kismet_dice.web.schemas import ErrorBody
from kismet_dice.web.security import SECURITY_HEADERS
from kismet_dice.web.store_thread import StoreNotAnswering

log = logging.getLogger(__name__)

FAILED: Final = "the server failed to do that; the game is as it was before"

# The first class an error is an instance of decides; subclasses come before their bases.
STATUSES: Final[tuple[tuple[type[Exception], int, str], ...]] = (
    (MissingSeatToken, 401, "no seat token"),
    (WrongSeatToken, 403, "a seat token that is not this game's"),
    (NoSuchTable, 404, "no such game"),
    (NoGames, 404, "no finished games under that name"),
    (BadSetup, 422, "players the game cannot seat: bad or shared names, too many"),
    (BadName, 422, "a name the Hall of Fame cannot take"),
    (IllegalAction, 409, "an action the rules or the turn order do not allow now"),
    (Unsaved, 503, "the game cannot be read or saved just now"),
    (StoreNotAnswering, 503, "the game store did not answer in time"),
    (StorageError, 503, "the game store cannot be used just now"),
    (ComputerUnavailable, 503, "the computer cannot play or advise on this server"),
    (Stopped, 503, STOPPING),
    (TooMany, 429, "too many requests of this kind from this address"),
)


def status_of(error: Exception) -> int:
    """The HTTP status that says why ``error`` refused a request; 500 for a failure."""
    for kind, status, _ in STATUSES:
        if isinstance(error, kind):
            return status
    return 500


def message_of(error: Exception) -> str:
    """What a client may read of ``error``: never a path, never a traceback."""
    if isinstance(error, StorageError):
        return error.public
    if status_of(error) == 500:
        return FAILED
    return str(error)


def validation_message(error: RequestValidationError | ValidationError) -> tuple[int, str]:
    """A body that is not JSON (400) or not what the endpoint takes (422), in one line."""
    problems = error.errors()
    if any(problem.get("type") == "json_invalid" for problem in problems):
        return 400, "the body is not valid JSON"
    parts = []
    for problem in problems:
        text = str(problem.get("msg", "invalid"))
        # The game's own checks say what they are about ("a player's name cannot be empty").
        own = text.startswith("Value error, ")
        where = _where([part for part in problem.get("loc", ()) if part != "body"], own)
        message = text.removeprefix("Value error, ")
        parts.append(f"{where}: {message}" if where else message)
    return 422, "; ".join(parts) or "the request is not what this endpoint takes"


def _where(location: list[int | str], own: bool) -> str:
    """Where in the body a problem is, as a person reads it: a seat by its number, then the fields
    (which the game's own sentences name already).

    >>> _where(["players", 1, "name"], own=True), _where(["players", 0, "name"], own=False)
    ('seat 2', 'seat 1, name')
    >>> _where(["name"], own=True), _where(["turn_seconds"], own=False)
    ('', 'turn_seconds')
    """
    if own and location and isinstance(location[-1], str):
        location = location[:-1]
    words: list[str] = []
    for at, part in enumerate(location):
        if isinstance(part, int) and at > 0 and location[at - 1] == "players":
            words[-1] = f"seat {part + 1}"
        else:
            words.append(str(part))
    return ", ".join(words)


def refusal(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


RESPONSES: Final[dict[int | str, dict[str, Any]]] = {
    400: {"model": ErrorBody, "description": "the body is not JSON"},
    413: {"model": ErrorBody, "description": "the body is too large"},
    422: {"model": ErrorBody, "description": "a body this endpoint does not take, or a name refused"},
}
for _kind, _status, _why in STATUSES:
    if _kind is not TooMany:  # only the rate-limited endpoints answer 429 (ratelimit.TOO_MANY)
        RESPONSES.setdefault(_status, {"model": ErrorBody, "description": _why})
"""The refusals every endpoint may answer, for the OpenAPI schema."""


def install(app: FastAPI) -> None:
    """Answer every refusal and failure of ``app`` as one line of JSON."""

    async def refused(request: Request, error: Exception) -> JSONResponse:
        if isinstance(error, StorageError):
            log.error("the store failed on %s %s: %s", request.method, request.url.path, error)
        # Over a rate: Retry-After says when to try again.
        headers = error.headers if isinstance(error, TooMany) else None
        return refusal(status_of(error), message_of(error), headers)

    # Each known kind has its own handler: a refusal is an answer, not a failure to log.
    for kind, _, _ in STATUSES:
        app.add_exception_handler(kind, refused)

    @app.exception_handler(Exception)
    async def failed(request: Request, error: Exception) -> JSONResponse:
        # The operator's log gets the traceback; the person gets one line.
        log.error("failed on %s %s", request.method, request.url.path, exc_info=error)
        # This answer is sent from outside every middleware: it brings the security headers itself.
        return refusal(500, FAILED, dict(SECURITY_HEADERS))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        return refusal(*validation_message(error))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        # 405 keeps its Allow header, 413 and the like their own.
        return refusal(error.status_code, str(error.detail), dict(error.headers or {}))
