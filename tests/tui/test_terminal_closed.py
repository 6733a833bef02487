"""A terminal game whose terminal closes ends, even where no hang-up reaches it."""

from __future__ import annotations

import os
import pty
import select
import signal
import time

import pytest

from tests.support.processes import KISMET


def read_until(fd: int, wanted: bytes, seconds: float) -> bytes:
    """What the program drew on the terminal, up to ``wanted`` (or all of it, when time ran out)."""
    seen = b""
    ends = time.monotonic() + seconds
    while wanted not in seen and time.monotonic() < ends:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
    return seen


def ended_within(pid: int, seconds: float) -> bool:
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        if os.waitpid(pid, os.WNOHANG) != (0, 0):
            return True
        time.sleep(0.1)
    return False


@pytest.mark.timeout(120)
def test_the_game_ends_when_its_terminal_closes_without_a_hang_up(kismet_home: str) -> None:
    # As under `make play`: the terminal's first process (make) starts the game and waits for it.
    # A closed terminal hangs up only that first process, which waits on; the game is sent
    # nothing, and finds only the end of its input.
    starter, terminal = pty.fork()
    if starter == 0:
        game = os.fork()
        if game == 0:
            os.environ.update(KISMET_HOME=kismet_home, TERM="xterm-256color")
            os.execv(KISMET[0], KISMET)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        os.waitpid(game, 0)
        os._exit(0)
    try:
        drawn = read_until(terminal, b"New game", 60)
        assert b"New game" in drawn, drawn[-500:]
        os.close(terminal)  # the terminal window is closed
        assert ended_within(starter, 30), "the game went on running without its terminal"
    finally:
        try:
            os.killpg(starter, signal.SIGKILL)
            os.waitpid(starter, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
