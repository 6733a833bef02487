"""A public server's protections, set in one place: which other origins may act, the rate limits,
the cap on open connections, and when untouched unfinished games expire.

``kismet serve`` builds :class:`Protections` from its options; :func:`install` puts them on an
app; ``GET /api/limits`` shows them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Final

from fastapi import FastAPI

from kismet_dice.web.live import PAGES
from kismet_dice.web.ratelimit import Limiter, Rate
from kismet_dice.web.security import HostCheck, OriginCheck, SecurityHeaders, normal_origin

HOUR: Final = 3600.0
NEW_GAMES: Final = Rate(10, 60.0)
ACTIONS: Final = Rate(300, 60.0)


@dataclass(frozen=True)
class Protections:
    """What a server allows, with the defaults of a public site.

    - ``allow_origins``: other sites' origins (``https://host[:port]``) whose pages may act here,
      besides the server's own.
    - ``rate_games``: new games per client address (a burst of 10, then one every 6 s): enough for
      a household or a classroom behind one address, too few to fill the store.
    - ``rate_actions``: rolls, scores, advice and Hall of Fame answers per client address. Six
      players on one home network share one address and each acts at most about once a second;
      300 a minute leaves them room and keeps one client to a small share of a core.
    - ``limit_concurrency``: open connections and requests in flight per process, beyond which
      uvicorn answers 503. It sits above the cap on live pages, so that cap (closing a page with a
      reason) is what a page meets first.
    - ``expire_days``: unfinished web games untouched this long are deleted (0: never);
      ``expire_every``: seconds between two looks for them.
    - ``allow_hosts``: the names (``Host``) a request may be made to besides addresses and this
      machine's names (``*`` any, ``*.example`` any under it); ``None``: no check (an app made in
      code; ``kismet serve`` always checks).
    """

    allow_origins: tuple[str, ...] = ()
    rate_games: Rate | None = NEW_GAMES
    rate_actions: Rate | None = ACTIONS
    limit_concurrency: int = PAGES + 200
    expire_days: float = 30.0
    expire_every: float = HOUR
    allow_hosts: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        for origin in self.allow_origins:
            if normal_origin(origin) is None:
                raise ValueError(f"an origin is like https://kismet.example or http://host:8000: {origin!r}")
        for host in self.allow_hosts or ():
            if not host or any(mark in host for mark in "/:@ "):
                raise ValueError(f"a host name is like kismet.example, *.example or *: {host!r}")
        if self.limit_concurrency < 1:
            raise ValueError(f"the concurrency limit is at least 1, not {self.limit_concurrency}")
        if not 0 <= self.expire_days <= 36500:
            raise ValueError(f"games expire after 0 (never) to 36500 days, not {self.expire_days}")
        if not self.expire_every > 0:
            raise ValueError(f"expired games are looked for every so many seconds, not {self.expire_every}")

    def to_json(self) -> str:
        """The protections as JSON, for worker processes started with them.

        >>> Protections.from_json(UNLIMITED.to_json()) == UNLIMITED
        True
        """

        def rate(value: Rate | None) -> list[float] | None:
            return None if value is None else [value.count, value.seconds]

        return json.dumps(
            {
                "allow_origins": list(self.allow_origins),
                "rate_games": rate(self.rate_games),
                "rate_actions": rate(self.rate_actions),
                "limit_concurrency": self.limit_concurrency,
                "expire_days": self.expire_days,
                "expire_every": self.expire_every,
                "allow_hosts": None if self.allow_hosts is None else list(self.allow_hosts),
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Protections:
        data = json.loads(text)

        def rate(value: list[float] | None) -> Rate | None:
            return None if value is None else Rate(int(value[0]), float(value[1]))

        return cls(
            allow_origins=tuple(data["allow_origins"]),
            rate_games=rate(data["rate_games"]),
            rate_actions=rate(data["rate_actions"]),
            limit_concurrency=int(data["limit_concurrency"]),
            expire_days=float(data["expire_days"]),
            expire_every=float(data["expire_every"]),
            allow_hosts=None if data.get("allow_hosts") is None else tuple(data["allow_hosts"]),
        )


UNLIMITED: Final = Protections(rate_games=None, rate_actions=None, expire_days=0.0)
"""No rate limits and no expiry: for load tests and a server only its owner uses."""


def install(app: FastAPI, protections: Protections) -> None:
    """Check origins and add the security headers on ``app``; keep its limits on ``app.state``.

    Call it after every other middleware is added: the headers then go on every answer, the
    refusals of the other middleware included."""
    app.state.protections = protections
    app.state.limiter = Limiter(protections.rate_games, protections.rate_actions)
    app.add_middleware(OriginCheck, allowed=protections.allow_origins)
    if protections.allow_hosts is not None:
        app.add_middleware(HostCheck, allowed=protections.allow_hosts)
    app.add_middleware(SecurityHeaders)
