"""The shape of the app's own middleware that is about HTTP requests alone."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send


class HttpMiddleware:
    """A pure ASGI middleware (no per-request objects, nothing buffered) that handles HTTP requests
    in :meth:`http` and passes everything else (WebSockets, the lifespan) on untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        await self.http(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        """One HTTP request, to be passed on to ``self._app`` (or answered here)."""
        await self._app(scope, receive, send)
