"""Security headers on every answer, the Origin checked on every state-changing request, and
the Host checked on every request.

Both are plain ASGI middleware: they wrap ``send`` and look at the scope, and never buffer a
body or run a request in another task (as Starlette's ``BaseHTTPMiddleware`` would).

The Origin check keeps other sites' pages from acting on this server through a visitor's
browser: a browser sends ``Origin`` with every cross-site POST and with every WebSocket
handshake, and a page cannot forge it. A request without an ``Origin`` comes from a program
(curl, a script, the tests), not from a page, and is let through, on the API and the WebSocket
alike: refusing it would protect nothing (such a program can send any header it likes) and
would lock out scripts that play or watch a game. Seat tokens are not cookies: a page on
another site holds none of them, so the check is a second wall, not the only one.
"""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import Iterable
from typing import Final
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kismet_dice.web.middleware import HttpMiddleware

CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"
)

SECURITY_HEADERS: Final[dict[str, str]] = {
    # Only this server's own files run or style its pages: no inline script, nothing from a CDN.
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    # Seat tokens travel in the fragment, which is never sent; no address leaves in a Referer either.
    "Referrer-Policy": "no-referrer",
    # frame-ancestors says the same to current browsers; this is for older ones.
    "X-Frame-Options": "DENY",
}
_ENCODED: Final = [(name.lower().encode(), value.encode()) for name, value in SECURITY_HEADERS.items()]

STATE_CHANGING: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})
POLICY_VIOLATION: Final = 1008
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}


class SecurityHeaders(HttpMiddleware):
    """Add :data:`SECURITY_HEADERS` to every HTTP answer that does not set them itself."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend((name, value) for name, value in _ENCODED if name not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self._app(scope, receive, send_with_headers)


def normal_origin(text: str) -> str | None:
    """An origin as ``scheme://host:port`` (lower case, the port always given), or ``None`` if
    ``text`` is not an http(s) origin.

    >>> normal_origin("https://Kismet.example"), normal_origin("http://[::1]:8000")
    ('https://kismet.example:443', 'http://[::1]:8000')
    >>> normal_origin("null"), normal_origin("https://a.example/path"), normal_origin("ftp://a.example")
    (None, None, None)
    """
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    if parts.query or parts.fragment or parts.username is not None:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port if port is not None else _DEFAULT_PORTS[scheme]}"


def own_origin(scope: Scope) -> str | None:
    """The origin a request was made to: its scheme (``https`` behind a TLS proxy whose forwarded
    headers are trusted, as uvicorn's proxy headers set it) and the ``Host`` it names."""
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
    host = _header(scope, b"host")
    if host is None:
        server = scope.get("server")
        if not server:
            return None
        host = f"{server[0]}:{server[1]}"
    return normal_origin(f"{scheme}://{host}")


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


async def refuse(scope: Scope, receive: Receive, send: Send, status: int, reason: str) -> None:
    """Refuse a request with ``status`` and ``{"error": reason}``, or a WebSocket with code 1008 and
    ``reason``: accepted and then closed, so that the page sees the code and the reason (a
    handshake refused outright reaches a page only as "closed abnormally")."""
    if scope["type"] == "http":
        body = json.dumps({"error": reason}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": POLICY_VIOLATION, "reason": reason})


class OriginCheck:
    """Refuse a state-changing request or a WebSocket whose ``Origin`` is neither this server's
    own nor one of ``allowed``: 403 with a JSON error, or a WebSocket closed with code 1008."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str] = ()) -> None:
        self._app = app
        self._allowed = frozenset(origin for origin in map(normal_origin, allowed) if origin is not None)

    def admits(self, scope: Scope) -> bool:
        origin = _header(scope, b"origin")
        if origin is None:
            return True
        normal = normal_origin(origin)
        return normal is not None and (normal in self._allowed or normal == own_origin(scope))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        checked = scope["type"] == "websocket" or (
            scope["type"] == "http" and scope.get("method", "GET") in STATE_CHANGING
        )
        if not checked or self.admits(scope):
            await self._app(scope, receive, send)
            return
        await refuse(scope, receive, send, 403, "requests from pages of another site are refused")


ANY_HOST: Final = "*"


def host_name(host: str) -> str:
    """The name of a ``Host`` header, without its port, in lower case.

    >>> host_name("Kismet.Example:8000"), host_name("[::1]:8000"), host_name("127.0.0.1")
    ('kismet.example', '::1', '127.0.0.1')
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def local_names() -> frozenset[str]:
    """The names this machine answers to without being told: ``localhost`` and its own name."""
    own = socket.gethostname().lower()
    return frozenset({"localhost", own, f"{own}.local"})


def host_admitted(name: str, allowed: Iterable[str], local: Iterable[str] = ("localhost",)) -> bool:
    """Whether a request naming ``name`` (see :func:`host_name`) is for this server: an address
    (nothing to rebind), a ``local`` name (``*.localhost`` too), or one of ``allowed`` (``*`` any
    name, ``*.example`` any name under it).

    >>> host_admitted("192.168.1.20", ()), host_admitted("::1", ()), host_admitted("localhost", ())
    (True, True, True)
    >>> host_admitted("evil.example", ()), host_admitted("kismet.example", ("kismet.example",))
    (False, True)
    >>> host_admitted("a.kismet.example", ("*.kismet.example",)), host_admitted("x", ("*",))
    (True, True)
    """
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    if name in local or name.endswith(".localhost"):
        return True
    for pattern in allowed:
        pattern = pattern.lower()
        if pattern in (ANY_HOST, name):
            return True
        if pattern.startswith("*.") and name.endswith(pattern[1:]):
            return True
    return False


class HostCheck:
    """Refuse a request whose ``Host`` names a server other than this one (400 with a JSON error,
    a WebSocket closed with code 1008).

    Another site's page could otherwise reach a server on a player's own machine or network: its
    name made to point at this server's address (DNS rebinding), its requests would carry its own
    name, and the Origin check would take them for this server's own pages. Addresses, this
    machine's names and the names given (``--allow-host``) are admitted; a request with no
    ``Host`` (HTTP/1.0) comes from a program, not a browser, and is let through.
    """

    def __init__(self, app: ASGIApp, allowed: Iterable[str] = ()) -> None:
        self._app = app
        self._allowed = tuple(allowed)
        self._local = local_names()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        host = _header(scope, b"host") if scope["type"] in ("http", "websocket") else None
        if host is None or host_admitted(host_name(host), self._allowed, self._local):
            await self._app(scope, receive, send)
            return
        await refuse(scope, receive, send, 400, f"this server does not answer for {host_name(host)[:60]!r}")
