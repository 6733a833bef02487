"""``kismet serve``'s options for a public site: origins, rates, connections, expiry, proxies.

Kept apart from the rest of ``kismet serve`` so the web stack is loaded only when a server runs:
the defaults live in :class:`kismet_dice.web.guard.Protections` (a test checks that the help
below names the same ones).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from kismet_dice.cli.errors import UserError

if TYPE_CHECKING:
    from kismet_dice.web.guard import Protections


GRACEFUL_SECONDS = 3


def register(serve: Any) -> None:
    site = serve.add_argument_group("a public site")
    site.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another site (https://host[:port]) whose pages may act here, besides this server's own; "
        "repeatable",
    )
    site.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name this server is reached by (kismet.example, *.example, or * for any), besides its "
        "addresses and this machine's own names; requests naming another are refused; repeatable",
    )
    site.add_argument(
        "--rate-games",
        metavar="RATE",
        help="new games per client address, like 10/min, 100/hour or off (default 10/min)",
    )
    site.add_argument(
        "--rate-actions",
        metavar="RATE",
        help="rolls, scores, advice and Hall of Fame answers per client address (default 300/min)",
    )
    site.add_argument(
        "--limit-concurrency",
        type=int,
        metavar="N",
        help="open connections and requests per process before new ones get 503 (default 2200)",
    )
    site.add_argument(
        "--expire-days",
        type=float,
        metavar="DAYS",
        help="delete unfinished web games untouched this long; 0 never (default 30)",
    )
    site.add_argument(
        "--proxy-headers",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="behind a reverse proxy: take the client's address and scheme from X-Forwarded-For and "
        "X-Forwarded-Proto, when the proxy is one of --forwarded-allow-ips (default on)",
    )
    site.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="print a line for every request (default off: a reverse proxy logs them, and the lines "
        "cost a tenth of the server's work per action)",
    )
    site.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        default=None,
        help="the proxies trusted with those headers, comma-separated, or * "
        "(default $FORWARDED_ALLOW_IPS, else 127.0.0.1)",
    )


def protections(options: argparse.Namespace) -> Protections:
    """The protections the options ask for, the others at their defaults; :class:`UserError` if wrong."""
    from kismet_dice.web.guard import Protections
    from kismet_dice.web.ratelimit import Rate

    chosen: dict[str, Any] = {
        "allow_origins": tuple(options.allow_origin),
        "allow_hosts": tuple(options.allow_host),
    }
    try:
        for name in ("rate_games", "rate_actions"):
            if getattr(options, name) is not None:
                chosen[name] = Rate.parse(getattr(options, name))
        if options.limit_concurrency is not None:
            chosen["limit_concurrency"] = options.limit_concurrency
        if options.expire_days is not None:
            chosen["expire_days"] = options.expire_days
        return Protections(**chosen)
    except ValueError as error:
        raise UserError(str(error)) from None


def uvicorn_options(options: argparse.Namespace, protections: Protections) -> dict[str, Any]:
    """What uvicorn is given for a public site."""
    from kismet_dice.web.connections import GuardedHttp

    return {
        "limit_concurrency": protections.limit_concurrency,
        "proxy_headers": options.proxy_headers,
        "forwarded_allow_ips": options.forwarded_allow_ips,
        "access_log": options.access_log,
        # A live message (a kilobyte or two) is encoded once but would be compressed again for
        # every page that follows the table: most of the cost of telling the watchers, to save a
        # few hundred bytes a move.
        "ws_per_message_deflate": False,
        # Stopping waits this long at most for requests under way (each waits for the store two
        # seconds at most) before the connections are closed: SIGTERM ends a server in seconds.
        "timeout_graceful_shutdown": GRACEFUL_SECONDS,
        # Limits on each connection before a request reaches the app: the head's size and time,
        # and connections per client address (see kismet_dice.web.connections).
        "http": GuardedHttp,
    }
