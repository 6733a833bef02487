"""Worker tasks that stop in the middle of their answer, as a worker stopped by a signal does."""

from __future__ import annotations

import inspect
import os
import signal
import struct


def begin_a_long_message(fd: int) -> None:
    """Write on ``fd`` what a sender stopped between multiprocessing's writes of a long message
    leaves: the length of a 100,000-byte message and its first 10 bytes."""
    os.write(fd, struct.pack("!i", 100_000) + b"\x80" * 10)


def stop_half_way_through_the_answer(value: int) -> int:
    """A task that begins its answer, a message of 100,000 bytes, and stops for good after 10 of
    them, as a worker stopped (SIGSTOP) between multiprocessing's writes of a long message does.

    The task is called from ``workers._answer``, whose ``connection`` is the worker's end of its
    pipe: the frame above hands it over, since nothing else in a worker holds it."""
    caller = inspect.currentframe()
    assert caller is not None and caller.f_back is not None
    connection = caller.f_back.f_locals["connection"]
    begin_a_long_message(connection.fileno())
    os.kill(os.getpid(), signal.SIGSTOP)
    return value
