"""The lock that lets processes compute a stored result once: the one waiting hears how the one
computing is getting on, from a real second process."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kismet_dice.strategy.table import computing_lock, telling_waits

# A second process that takes the lock and reports the figures it is sent on stdin, one line
# "done total" at a time, until it reads "done".
HOLDER = """
import sys
from pathlib import Path
from kismet_dice.strategy.table import computing_lock, telling_waits

with computing_lock(Path(sys.argv[1])) as progress:
    print("holding", flush=True)
    for line in sys.stdin:
        if line.strip() == "done":
            break
        done, total = map(int, line.split())
        progress(done, total)
        print("told", flush=True)
"""


class Holder:
    def __init__(self, path: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._line() == "holding"

    def _line(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.readline().strip()

    def tell(self, done: int, total: int) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{done} {total}\n")
        self.process.stdin.flush()
        assert self._line() == "told"

    def finish(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("done\n")
        self.process.stdin.flush()
        assert self.process.wait(30) == 0


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[Callable[[], Holder]]:
    made: list[Holder] = []

    def make() -> Holder:
        made.append(Holder(tmp_path / "result.bin"))
        return made[-1]

    yield make
    for each in made:
        each.process.kill()
        each.process.wait(30)


class Waiter(threading.Thread):
    """Waits for the lock with a progress of its own, in a thread of this process."""

    def __init__(self, path: Path) -> None:
        super().__init__(daemon=True)
        self.path = path
        self.told: list[tuple[int, int]] = []
        self.holding = threading.Event()
        self.release = threading.Event()
        self.start()

    def run(self) -> None:
        with computing_lock(self.path, lambda done, total: self.told.append((done, total))) as progress:
            self.holding.set()
            progress(1, 2)  # its own computation's progress reaches its own player too
            self.release.wait(30)

    def hears(self, figures: list[tuple[int, int]]) -> bool:
        deadline = time.monotonic() + 10
        while self.told != figures and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.told == figures


def test_a_process_waiting_for_the_computation_hears_its_progress_as_it_goes(
    tmp_path: Path, holder: Callable[[], Holder]
) -> None:
    computing = holder()
    waiter = Waiter(tmp_path / "result.bin")
    computing.tell(3, 10)
    assert waiter.hears([(3, 10)])
    computing.tell(7, 10)
    assert waiter.hears([(3, 10), (7, 10)])
    assert not waiter.holding.is_set()  # it still waits for the other to finish
    computing.finish()
    assert waiter.holding.wait(10)
    waiter.release.set()
    waiter.join(10)
    assert waiter.told == [(3, 10), (7, 10), (1, 2)]


def test_the_figures_of_a_computation_that_was_killed_are_not_told_to_the_next_waiter(
    tmp_path: Path, holder: Callable[[], Holder]
) -> None:
    path = tmp_path / "result.bin"
    killed = holder()
    killed.tell(9, 10)
    killed.process.kill()
    killed.process.wait(30)
    with computing_lock(path) as progress:
        waiter = Waiter(path)
        time.sleep(0.5)  # several of its looks at the record
        assert waiter.told == []  # the killed process's 9 of 10 belongs to no computation now
        progress(1, 4)
        assert waiter.hears([(1, 4)])
    assert waiter.holding.wait(10)
    waiter.release.set()
    waiter.join(10)


def test_a_lock_that_cannot_be_made_still_passes_the_progress_on(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    told: list[tuple[int, int]] = []
    with computing_lock(blocked / "result.bin", lambda done, total: told.append((done, total))) as progress:
        progress(2, 5)
    assert told == [(2, 5)]


def test_a_process_that_finds_the_work_under_way_elsewhere_is_told_it_waits_once(
    tmp_path: Path, holder: Callable[[], Holder]
) -> None:
    path = tmp_path / "result.bin"
    told: list[bool] = []
    with telling_waits(told.append):
        with computing_lock(path):
            pass  # nobody else computes: nothing to tell
        assert told == []
        computing = holder()
        waiter = Waiter(path)
        computing.tell(1, 10)
        assert waiter.hears([(1, 10)])
        computing.tell(2, 10)
        assert waiter.hears([(1, 10), (2, 10)])
        assert told == [True]  # once, however long it waits
        computing.finish()
        assert waiter.holding.wait(10)
        assert told == [True, False]  # the wait is over before its own work begins
        waiter.release.set()
        waiter.join(10)
    assert told == [True, False]


def test_a_notice_of_waiting_that_cannot_be_given_does_not_stop_the_wait(
    tmp_path: Path, holder: Callable[[], Holder]
) -> None:
    def broken(waiting: bool) -> None:
        raise RuntimeError("the screen is gone")

    path = tmp_path / "result.bin"
    computing = holder()
    with telling_waits(broken):
        waiter = Waiter(path)
        computing.tell(4, 5)
        assert waiter.hears([(4, 5)])
        computing.finish()
        assert waiter.holding.wait(10)
    waiter.release.set()
    waiter.join(10)
    assert waiter.told == [(4, 5), (1, 2)]
