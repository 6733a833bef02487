"""``kismet serve`` in processes of their own, as a site runs it, and pages that follow them.

Each server is a real process on a free port of 127.0.0.1 (this checkout's code, through the
inherited ``PYTHONPATH``); it may be stopped, or killed with SIGKILL to see who takes over.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
from websockets.sync.client import ClientConnection, connect

from tests.support.ports import free_port, taken

KISMET = [sys.executable, "-c", "import sys; from kismet_dice.cli import main; sys.exit(main())"]
START_SECONDS = 60.0
START_ATTEMPTS = 5
"""How many ports a server is started on before the test fails: another test's server may take the
port chosen between the check and the bind."""
RECEIVE_SECONDS = 30.0
"""The longest a page waits for a message before the test fails (a guard against hanging, not a
measure: moves reach pages in milliseconds)."""


class Server:
    """One ``kismet serve`` process (with its workers, if any)."""

    def __init__(self, home: Path, *arguments: str) -> None:
        for _ in range(START_ATTEMPTS):
            if self._start(home, arguments):
                return
        raise AssertionError(f"kismet serve found its port taken {START_ATTEMPTS} times")

    def _start(self, home: Path, arguments: tuple[str, ...]) -> bool:
        """Start the server and wait until it answers: False if its port was taken."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            # Every client here comes from 127.0.0.1: a site's per-address rate limits would refuse
            # a test's or a benchmark's load, so they are off.
            [
                *KISMET,
                "serve",
                "--port",
                str(self.port),
                "--rate-games",
                "off",
                "--rate-actions",
                "off",
                *arguments,
            ],
            env={**os.environ, "KISMET_HOME": str(home)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.http = httpx2.Client(base_url=self.url, timeout=RECEIVE_SECONDS)
        deadline = time.monotonic() + START_SECONDS
        while True:
            if self.process.poll() is not None:
                errors = self.process.communicate()[1]
                self.http.close()
                if taken(errors):
                    return False
                raise AssertionError(f"kismet serve stopped: {errors}")
            try:
                if self.http.get("/api/limits").status_code == 200:
                    return True
            except httpx2.TransportError:
                pass
            assert time.monotonic() < deadline, "kismet serve did not start"
            time.sleep(0.1)

    @property
    def pid(self) -> int:
        return self.process.pid

    def workers(self) -> list[int]:
        """The ids of the worker processes this server started (not multiprocessing's helpers)."""
        children = Path(f"/proc/{self.pid}/task/{self.pid}/children").read_text().split()
        return [
            int(child) for child in children if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()
        ]

    def kill(self) -> None:
        """SIGKILL: the process ends at once, with nothing tidied up."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        self.http.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.communicate()
        self.http.close()

    @contextmanager
    def page(self, game_id: str) -> Iterator[Page]:
        """A page of the game, open until the ``with`` ends."""
        with connect(f"ws://127.0.0.1:{self.port}/api/games/{game_id}/live") as connection:
            yield Page(connection)


class Page:
    """A page's socket, as :class:`tests.support.live.LiveGame` reads it."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection

    def receive_json(self) -> Any:
        return json.loads(self.connection.recv(timeout=RECEIVE_SECONDS))

    def send_json(self, data: Any) -> None:
        self.connection.send(json.dumps(data))


@contextmanager
def servers(home: Path, count: int, *arguments: str) -> Iterator[list[Server]]:
    """``count`` servers started with the same ``arguments``, stopped at the end."""
    started: list[Server] = []
    try:
        for _ in range(count):
            started.append(Server(home, *arguments))
        yield started
    finally:
        for server in started:
            server.stop()
