"""What routes are given: the server's service, and the seat token a request carries.

The dependency is a coroutine so that FastAPI calls it on the event loop, not in a thread."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from kismet_dice.web.service import WebService

SEAT_TOKEN_HEADER = "X-Seat-Token"


async def service(connection: HTTPConnection) -> WebService:
    found: WebService = connection.app.state.service
    return found


Service = Annotated[WebService, Depends(service)]
SeatToken = Annotated[str | None, Header(alias=SEAT_TOKEN_HEADER, max_length=200)]
