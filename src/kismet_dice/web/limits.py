"""Size limits on what a client may send, checked before anything is parsed."""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kismet_dice.web.middleware import HttpMiddleware

MAX_BODY_BYTES = 4096
"""The largest request body: a new game with six names fits many times over."""

MAX_MESSAGE_CHARACTERS = 4096
"""The largest WebSocket message a page may send."""

MAX_NAME_CHARACTERS = 100
"""Longer names are refused before the engine's own check (24 characters once trimmed)."""


class BodyLimit(HttpMiddleware):
    """Refuse request bodies over ``limit`` bytes with 413, whether announced or streamed."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        super().__init__(app)
        self._limit = limit

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"the request body is larger than {self._limit} bytes"
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self._limit):
                await _refuse(send, message)
                return
        received = 0

        async def counted() -> Message:
            nonlocal received
            incoming = await receive()
            if incoming["type"] == "http.request":
                received += len(incoming.get("body", b""))
                if received > self._limit:
                    # FastAPI passes an HTTPException raised while reading the body on unchanged.
                    raise HTTPException(413, message)
            return incoming

        await self._app(scope, counted, send)


async def _refuse(send: Send, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
