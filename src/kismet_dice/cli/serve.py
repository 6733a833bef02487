"""``kismet serve``: the web table, for a browser on this machine or friends on the network."""

from __future__ import annotations

import argparse
import errno
import socket
from typing import TYPE_CHECKING, Any

from kismet_dice.cli import serve_guard
from kismet_dice.cli.errors import UserError
from kismet_dice.session import COMPUTER_PACE

if TYPE_CHECKING:
    from kismet_dice.web.guard import Protections

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def register(subparsers: Any) -> None:
    serve = subparsers.add_parser(
        "serve",
        help="play in a web browser, alone or with friends (http://127.0.0.1:8000)",
        description="Run the Kismet web server: a lobby, the game table, live multiplayer, the rules.",
    )
    serve.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    serve.add_argument(
        "--pace",
        type=float,
        default=None,
        metavar="SECONDS",
        help=f"pause before each action of a computer player (default {COMPUTER_PACE})",
    )
    serve.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="serve from a site's PostgreSQL database, postgresql://... (default $KISMET_DATABASE_URL, "
        "else this machine's file, which one server at a time may use)",
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="serve from N processes on one port (PostgreSQL only; default 1)",
    )
    serve_guard.register(serve)
    serve.set_defaults(run=run_serve)


def run_serve(options: argparse.Namespace) -> int:
    if not 0 < options.port < 65536:
        raise UserError(f"a port is 1 to 65535, not {options.port}")
    if options.pace is not None and not 0 <= options.pace <= 60:
        raise UserError(f"a pace is 0 to 60 seconds, not {options.pace}")
    if not 1 <= options.workers <= 64:
        raise UserError(f"workers are 1 to 64 processes, not {options.workers}")
    protections = serve_guard.protections(options)
    check_listening(options.host, options.port)
    # Imported here so the other commands start without loading the web stack.
    import uvicorn

    from kismet_dice.storage import Storage, StorageError
    from kismet_dice.web import create_app
    from kismet_dice.web.limits import MAX_MESSAGE_CHARACTERS

    try:
        # The same store as every interface: games and the Hall of Fame are shared. A store that
        # cannot be written stops the server here, with one line, rather than failing every move.
        with Storage.open(database=options.database) as storage:
            storage.check_writable()
            # A SQLite file serves one server process: a second one is refused here. The lock is
            # held until this process ends; the terminal game and plain text may still use the file.
            lock = storage.lock_for_serving()
    except StorageError as error:
        raise UserError(str(error)) from None
    pace = COMPUTER_PACE if options.pace is None else options.pace
    if options.workers > 1 and lock is not None:
        lock.release()
        raise UserError("--workers needs a PostgreSQL database (--database): SQLite is for one process")
    print(f"Kismet is served at {address_of(options.host, options.port)} (Ctrl+C stops it)", flush=True)
    # A UTF-8 character takes at most four bytes; larger frames are refused by the server itself.
    where = {
        "host": options.host,
        "port": options.port,
        "ws_max_size": 4 * MAX_MESSAGE_CHARACTERS,
        **serve_guard.uvicorn_options(options, protections),
    }
    try:
        if options.workers > 1:
            _serve_workers(options.workers, options.database, pace, protections, where)
        else:
            app = create_app(database=options.database, pace=pace, protections=protections)
            uvicorn.run(app, **where)
    finally:
        if lock is not None:
            lock.release()
    return 0


def address_of(host: str, port: int) -> str:
    """The address a browser opens for the server (an IPv6 host in brackets, as URLs write it).

    >>> address_of("127.0.0.1", 8000), address_of("::1", 8000)
    ('http://127.0.0.1:8000/', 'http://[::1]:8000/')
    """
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def check_listening(host: str, port: int) -> None:
    """Refuse, in one line, an address the server could not listen on (a port another program
    listens on, an address that is not this machine's, a port below 1024 without the right to it).
    Uvicorn would say so only after its start-up lines, once this command had said the game is
    served there. Bound and let go as uvicorn binds it (reusing an address only a closed
    connection still holds), so what passes here is what uvicorn can take a moment later."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            reason = (error.strerror or str(error)).lower()
            if error.errno == errno.EADDRINUSE:
                reason += " (another server? --port chooses another)"
            elif error.errno == errno.EACCES:
                reason += " (ports below 1024 are the administrator's)"
            raise UserError(f"cannot serve on {host}:{port}: {reason}") from None


def _serve_workers(
    workers: int, database: str | None, pace: float, protections: Protections, where: dict[str, Any]
) -> None:
    """N worker processes on one port: each makes its app from the environment set here."""
    import os

    import uvicorn

    from kismet_dice.storage import DATABASE_VARIABLE
    from kismet_dice.web.app import PACE_VARIABLE, PROTECTIONS_VARIABLE

    if database is not None:
        os.environ[DATABASE_VARIABLE] = database
    os.environ[PACE_VARIABLE] = repr(pace)
    os.environ[PROTECTIONS_VARIABLE] = protections.to_json()
    uvicorn.run("kismet_dice.web.app:app_from_environment", factory=True, workers=workers, **where)
