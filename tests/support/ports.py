"""Ports for the servers the tests start in processes of their own.

A server started on a port found free a moment before may find it taken: by another test's
server, or by an outgoing connection, which the system gives a port of its ephemeral range
(``/proc/sys/net/ipv4/ip_local_port_range``) that nothing listens on. The ports here lie below
that range, so only another test's server can take one, and :func:`taken` tells a server that
stopped for that reason, to be started again on another port.
"""

from __future__ import annotations

import random
import socket
from pathlib import Path

LOWEST = 10_000
"""Below this are the ports that services of the machine commonly listen on."""

_choices = random.SystemRandom()  # not the tests' seeded generators: each worker picks its own


def _ephemeral_start() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768  # Linux's default


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on now, outside the ephemeral range."""
    highest = max(LOWEST + 1_000, _ephemeral_start())
    while True:
        port = _choices.randrange(LOWEST, highest)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


def taken(error_output: str) -> bool:
    """Whether a server's error output says that its port was in use when it came to bind."""
    return "address already in use" in error_output.lower()
