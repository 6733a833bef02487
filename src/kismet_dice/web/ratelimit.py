"""Per-client rate limits: a token bucket per client address, for new games and for actions.

A bucket holds up to ``count`` tokens and gains ``count`` of them every ``seconds``; each request
takes one. An empty bucket refuses with 429 and says, in ``Retry-After``, how many seconds until
it holds a token again. The client is ``scope["client"]``: the real client behind a trusted proxy
(uvicorn's proxy headers), else the address the connection came from. Buckets live in the
process: a server of N worker processes lets a client up to N times the rate in the worst case.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from fastapi import Depends
from starlette.requests import HTTPConnection

from kismet_dice.web.schemas import ErrorBody

Clock = Callable[[], float]

UNITS: Final = {"s": 1.0, "sec": 1.0, "second": 1.0, "min": 60.0, "minute": 60.0, "h": 3600.0, "hour": 3600.0}
_RATE = re.compile(r"\s*(\d+)\s*/\s*(\d*)\s*([a-z]+)\s*")

MAX_CLIENTS: Final = 10_000
"""Buckets kept before the full ones (no different from no bucket at all) are dropped."""


@dataclass(frozen=True)
class Rate:
    """``count`` requests every ``seconds``, as a burst or spread out.

    >>> Rate.parse("10/min"), str(Rate.parse("120/minute")), Rate.parse("5 / 10s")
    (Rate(count=10, seconds=60.0), '120/min', Rate(count=5, seconds=10.0))
    >>> Rate.parse("off") is None
    True
    """

    count: int
    seconds: float

    def __post_init__(self) -> None:
        if self.count < 1 or not self.seconds > 0:
            raise ValueError(f"a rate is at least one request in some time, not {self.count}/{self.seconds}s")

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """``N/min``, ``N/s``, ``N/hour``, ``N/10s``…; ``off`` for no limit. ``ValueError`` otherwise."""
        if text.strip().lower() == "off":
            return None
        match = _RATE.fullmatch(text.lower())
        if match is None or match[3] not in UNITS:
            raise ValueError(f"a rate is like 10/min, 2/s or 100/hour (or off), not {text!r}")
        count, times, unit = match.groups()
        return cls(int(count), float(times or 1) * UNITS[unit])

    def __str__(self) -> str:
        for unit in ("hour", "min", "s"):
            if self.seconds == UNITS[unit]:
                return f"{self.count}/{unit}"
        return f"{self.count}/{self.seconds:g}s"


class TooMany(Exception):
    """A client over its rate: try again in ``retry_after`` seconds (a whole number, at least 1)."""

    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__(f"too many {what} from this address; try again in {retry_after} s")
        self.retry_after = retry_after

    @property
    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after)}


class Buckets:
    """One token bucket per client for one ``rate``; ``clock`` gives seconds (monotonic)."""

    def __init__(self, rate: Rate, clock: Clock = time.monotonic) -> None:
        self.rate = rate
        self._clock = clock
        self._per_second = rate.count / rate.seconds
        # client -> (tokens, when they were counted)
        self._buckets: dict[str, tuple[float, float]] = {}
        # Routes run on the event loop, but the lock keeps a bucket right from any thread.
        self._lock = threading.Lock()

    def take(self, client: str) -> float:
        """Take a token for ``client``: 0 if it had one, else the seconds until it will."""
        with self._lock:
            now = self._clock()
            tokens, then = self._buckets.get(client, (float(self.rate.count), now))
            tokens = min(float(self.rate.count), tokens + (now - then) * self._per_second)
            if tokens >= 1:
                self._buckets[client] = (tokens - 1, now)
                if len(self._buckets) > MAX_CLIENTS:
                    self._forget_full(now)
                return 0.0
            self._buckets[client] = (tokens, now)
            return (1 - tokens) / self._per_second

    def _forget_full(self, now: float) -> None:
        full = [
            client
            for client, (tokens, then) in self._buckets.items()
            if tokens + (now - then) * self._per_second >= self.rate.count
        ]
        for client in full:
            del self._buckets[client]


class Limiter:
    """The server's limits on new games and on actions (a ``None`` rate: no limit)."""

    def __init__(self, games: Rate | None, actions: Rate | None, clock: Clock = time.monotonic) -> None:
        self._games = None if games is None else Buckets(games, clock)
        self._actions = None if actions is None else Buckets(actions, clock)

    def new_game(self, client: str) -> None:
        """Count a new game of ``client``; :class:`TooMany` if it is over the rate."""
        _take(self._games, client, "new games")

    def action(self, client: str) -> None:
        """Count an action of ``client`` (a roll, a score, advice, a Hall of Fame answer)."""
        _take(self._actions, client, "actions")


def _take(buckets: Buckets | None, client: str, what: str) -> None:
    if buckets is None:
        return
    wait = buckets.take(client)
    if wait > 0:
        raise TooMany(what, max(1, math.ceil(wait)))


def client_of(connection: HTTPConnection) -> str:
    """The client's address (the real client's behind a trusted proxy)."""
    client = connection.scope.get("client")
    return str(client[0]) if client else "unknown"


def limiter_of(connection: HTTPConnection) -> Limiter:
    found: Limiter = connection.app.state.limiter
    return found


async def _new_game(connection: HTTPConnection) -> None:
    limiter_of(connection).new_game(client_of(connection))


async def _action(connection: HTTPConnection) -> None:
    limiter_of(connection).action(client_of(connection))


NEW_GAME: Final = Depends(_new_game)
"""A route's dependency: counts a new game against its client's rate."""

ACTION: Final = Depends(_action)
"""A route's dependency: counts an action against its client's rate."""

TOO_MANY: Final[dict[int | str, dict[str, Any]]] = {
    429: {
        "model": ErrorBody,
        "description": "too many requests of this kind from this address; try again after Retry-After",
        "headers": {
            "Retry-After": {
                "description": "seconds to wait before trying again",
                "schema": {"type": "integer"},
            },
        },
    }
}
"""The answer of a rate-limited endpoint over its rate, for the OpenAPI schema."""
