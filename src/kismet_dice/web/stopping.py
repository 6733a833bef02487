"""A request still under way when the server stops is answered, not dropped with a traceback.

Stopping, uvicorn waits a few seconds (``GRACEFUL_SECONDS``) for the requests under way, then
cancels those still running. A few can run that long the first time on a server: a chart waiting
for its reference games, the standings of a finished game waiting for perfect play's
distribution. Cancelled, such a request ended with a traceback in the operator's log ("Exception
in ASGI application ... CancelledError") and a 500 for its page. Here it is answered 503 (the
page may ask again once the server is back), and the log keeps uvicorn's one line about the
requests it cancelled.
"""

from __future__ import annotations

import asyncio

from starlette.types import Message, Receive, Scope, Send

from kismet_dice.web.computer import STOPPING
from kismet_dice.web.errors import refusal
from kismet_dice.web.middleware import HttpMiddleware


class AnsweredWhileStopping(HttpMiddleware):
    """Answer 503 to an HTTP request whose handling is cancelled before its answer began."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self._app(scope, receive, sending)
        except asyncio.CancelledError:
            # Only the server cancels a request's task (a client that leaves does not): it is
            # stopping, and awaits nothing of this task after the cancel, so the task may end here.
            # An answer already begun is left cut short; the connection closes with the server.
            if not started:
                await refusal(503, STOPPING)(scope, receive, sending)
