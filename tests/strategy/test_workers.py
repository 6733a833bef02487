"""Worker processes: safe to start from a thread of a busy process, never waited on for ever, never left.

Workers come from multiprocessing's fork server. It stays up once started, with multiprocessing's
resource tracker, for the life of the process that started them: those two service processes
may remain children of the test process; workers never do.
"""

from __future__ import annotations

import dataclasses
import io
import multiprocessing as mp
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from tests.support.compiles import compiled_in_a_worker, set_up
from tests.support.stalls import begin_a_long_message, stop_half_way_through_the_answer

from kismet_dice.strategy import Computer, ComputerUnavailable, SolveFailed, compiled
from kismet_dice.strategy.ruleset import RuleSet, yahtzee_rules
from kismet_dice.strategy.simulate import run
from kismet_dice.strategy.solver import solve
from kismet_dice.strategy.workers import Workers, receive

SERVICES = ("multiprocessing.forkserver", "multiprocessing.resource_tracker")
"""What the command line of multiprocessing's own long-lived helper processes contains."""

SRC = Path(__file__).resolve().parents[2] / "src"


def small_rules() -> RuleSet:
    """Yahtzee's upper section, Yahtzee and Chance: eight boxes, solved in a fraction of a second."""
    yahtzee = yahtzee_rules()
    boxes = yahtzee.boxes[:6] + tuple(box for box in yahtzee.boxes if box.name in ("YAHTZEE", "CHANCE"))
    return dataclasses.replace(yahtzee, name="small", boxes=boxes)


def parent_of(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])


def children_of(pid: int) -> list[int]:
    return [
        int(entry.name)
        for entry in Path("/proc").iterdir()
        if entry.name.isdigit() and parent_of(int(entry.name)) == pid
    ]


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def running(pid: int) -> bool:
    """Whether ``pid`` exists and is not a zombie (a process that ended but was not reaped yet)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def assert_no_worker_left() -> None:
    """No child process but the fork server and the resource tracker (one each), and they have no children."""
    assert mp.active_children() == []
    if not sys.platform.startswith("linux"):
        return
    left = [pid for pid in children_of(os.getpid()) if running(pid)]
    kinds = [next((service for service in SERVICES if service in command_line(pid)), None) for pid in left]
    assert None not in kinds, [command_line(pid) for pid in left]
    assert len(kinds) == len(set(kinds))
    assert [child for pid in left for child in children_of(pid) if running(child)] == []


@pytest.fixture(autouse=True)
def no_worker_outlives_its_test() -> Iterator[None]:
    """Workers a failed test left (stopped, say) are ended after it, so that its failure stays its
    own: two workers a stall test left stopped once failed the four tests after it, each finding
    children that were not its own."""
    yield
    for child in mp.active_children():
        child.kill()  # SIGKILL ends a stopped process too
        child.join(timeout=10)


@pytest.fixture
def busy_threads() -> Iterator[None]:
    """Three threads that take locks, print and compute all the time, as a server's threads do."""
    stop = threading.Event()
    lock = threading.Lock()

    def churn() -> None:
        sink = io.StringIO()
        while not stop.is_set():
            with lock:
                print("busy", file=sink)
                np.arange(1000).sum()
            sink.seek(0)
            sink.truncate()

    threads = [threading.Thread(target=churn, daemon=True) for _ in range(3)]
    for thread in threads:
        thread.start()
    yield
    stop.set()
    for thread in threads:
        thread.join()


def in_thread(work: Callable[[], object]) -> object:
    """What ``work`` returns or raises, run on a fresh thread."""
    outcome: list[object] = []

    def target() -> None:
        try:
            outcome.append(work())
        except BaseException as error:
            outcome.append(error)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    return outcome[0]


def kill_a_worker(done: int) -> None:
    """A progress callback that kills a worker process outright, as the out-of-memory killer would."""
    # A child listed a moment ago may have ended since (a worker killed before it was reaped):
    # the first one still there is killed.
    for child in mp.active_children():
        if child.pid is not None:
            try:
                os.kill(child.pid, signal.SIGKILL)
            except ProcessLookupError:
                continue
            return


@pytest.mark.timeout(120)
def test_solves_from_threads_of_a_busy_process_all_finish_alike(busy_threads: None) -> None:
    rules = small_rules()
    expected = solve(rules, threads=1)
    for _ in range(8):
        values = in_thread(lambda: solve(rules, threads=2))
        assert isinstance(values, np.ndarray)
        np.testing.assert_array_equal(values, expected)
    assert_no_worker_left()


@pytest.mark.timeout(120)
def test_a_worker_killed_in_the_middle_of_a_simulation_makes_it_fail_instead_of_hang() -> None:
    outcome = in_thread(lambda: run("easy", 3000, processes=2, progress=kill_a_worker, stall=3))
    assert isinstance(outcome, SolveFailed)
    message = str(outcome)
    assert message.startswith("The games could not be played: ") and "\n" not in message
    assert_no_worker_left()


@pytest.mark.timeout(120)
def test_a_worker_that_stops_making_progress_fails_the_simulation_after_the_stall_limit() -> None:
    def stop_a_worker(done: int) -> None:
        for child in mp.active_children():
            os.kill(child.pid or 0, signal.SIGSTOP)

    outcome = in_thread(lambda: run("easy", 3000, processes=2, progress=stop_a_worker, stall=2))
    assert isinstance(outcome, SolveFailed)
    assert "no progress for 2 seconds" in str(outcome)
    assert_no_worker_left()


@pytest.mark.timeout(60)
def test_a_message_its_sender_stops_sending_half_way_fails_after_the_stall_limit() -> None:
    # The length of a 100,000-byte message and its first bytes, as a worker stopped between its
    # writes leaves them: the rest never comes, but the sender is still there.
    mine, theirs = mp.Pipe()
    with mine, theirs:
        begin_a_long_message(theirs.fileno())
        began = time.monotonic()
        with pytest.raises(TimeoutError):
            receive(mine, 0.5)
        assert 0.5 <= time.monotonic() - began < 30


@pytest.mark.timeout(60)
def test_a_worker_stopped_in_the_middle_of_its_answer_fails_the_work_after_the_stall_limit() -> None:
    with (
        Workers(1, stop_half_way_through_the_answer, set_up, (), what="Answering", stall=1) as workers,
        pytest.raises(SolveFailed) as failed,
    ):
        list(workers.map([1]))
    assert str(failed.value) == "Answering: the worker processes made no progress for 1 seconds"
    assert_no_worker_left()


def test_a_message_whose_sender_ends_half_way_is_the_end_of_the_sender() -> None:
    mine, theirs = mp.Pipe()
    with mine:
        begin_a_long_message(theirs.fileno())
        theirs.close()
        with pytest.raises(EOFError):
            receive(mine, 5)


@pytest.mark.timeout(60)
def test_messages_larger_than_a_pipe_holds_arrive_whole_and_in_order() -> None:
    # 40 KB (sent as its length, then its bytes), 800 KB (more than a pipe holds: read in parts
    # while the sender still writes) and a small one.
    sent = [np.arange(5_000, dtype=np.intp), np.arange(100_000, dtype=np.intp), ("ok", 7)]
    mine, theirs = mp.Pipe()
    with mine, theirs:

        def send_all() -> None:
            for item in sent:
                theirs.send(item)

        sender = threading.Thread(target=send_all)
        sender.start()
        got = [receive(mine, 30) for _ in sent]
        sender.join()
    np.testing.assert_array_equal(got[0], sent[0])
    np.testing.assert_array_equal(got[1], sent[1])
    assert got[2] == ("ok", 7)


@pytest.mark.timeout(120)
def test_an_interrupted_simulation_stops_its_workers() -> None:
    def interrupt(done: int) -> None:
        raise KeyboardInterrupt

    outcome = in_thread(lambda: run("easy", 3000, processes=2, progress=interrupt))
    assert isinstance(outcome, KeyboardInterrupt)
    assert_no_worker_left()


@pytest.mark.timeout(120)
def test_a_simulation_from_a_thread_plays_the_same_games_on_two_workers_as_on_one() -> None:
    alone = run("easy", 500, processes=1, seed=1)
    shared = in_thread(lambda: run("easy", 500, processes=2, seed=1))
    assert isinstance(shared, type(alone))
    np.testing.assert_array_equal(shared.entries, alone.entries)
    assert shared.entries.shape == (500, alone.entries.shape[1])
    assert_no_worker_left()


def test_workers_that_compile_the_strategy_say_so_to_the_process_that_started_them() -> None:
    told: list[str] = []
    with (
        compiled.telling_compiles(lambda: told.append("told")),
        Workers(2, compiled_in_a_worker, set_up, (), what="Compiling") as workers,
    ):
        # Each task compiles loops of its own: its worker says so, then answers.
        assert list(workers.map([1, 2, 3])) == [4, 7, 10]
    assert told == ["told"] * 3
    assert not compiled.compiling()  # the compiles were the workers', not this process's
    assert_no_worker_left()


@pytest.mark.timeout(120)
def test_the_computer_that_cannot_solve_is_unavailable_with_a_reason_and_tries_again(tmp_path: Path) -> None:
    computer = Computer(directory=tmp_path)
    assert computer.failure is None
    attempts: list[int] = []

    def note_and_fail(done: int, total: int) -> None:
        attempts.append(done)
        raise MemoryError  # as a solve on a machine out of memory

    for _ in range(2):
        before = len(attempts)
        with pytest.raises(ComputerUnavailable) as raised:
            computer.advisor(note_and_fail)
        # Each call solves (and reports progress) again rather than repeating the first failure.
        assert len(attempts) > before
        assert str(raised.value) == computer.failure
        assert computer.failure is not None and "\n" not in computer.failure
        assert computer.failure.startswith("There is not enough memory for")
        assert not computer.ready
    assert_no_worker_left()


ORPHAN = textwrap.dedent(
    """
    import time
    from kismet_dice.strategy.workers import Workers

    def nap(seconds):
        print("napping", flush=True)  # from the worker, on the parent's standard output
        time.sleep(seconds)

    if __name__ == "__main__":
        with Workers(2, nap, int, (), what="Napping") as workers:
            list(workers.map([3600, 3600]))
    """
)


@pytest.mark.timeout(120)
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the processes in /proc")
def test_busy_workers_and_the_fork_server_end_when_the_process_that_started_them_is_killed(
    tmp_path: Path,
) -> None:
    script = tmp_path / "orphan.py"
    script.write_text(ORPHAN)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    with subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, env=environment) as parent:
        try:
            assert parent.stdout is not None
            # Both workers are running once the fork server has two children (looked for in /proc,
            # not by what they print: a pipe's output is no promise of when it arrives).
            deadline = time.monotonic() + 60
            services: list[int] = []
            workers: list[int] = []
            while time.monotonic() < deadline:
                services = children_of(parent.pid)
                servers = [pid for pid in services if "multiprocessing.forkserver" in command_line(pid)]
                workers = children_of(servers[0]) if len(servers) == 1 else []
                if len(workers) == 2:
                    break
                time.sleep(0.1)
            assert len(workers) == 2
        finally:
            parent.kill()
            parent.wait()
    # They go on their own once the parent is gone; this only waits for that to be seen.
    deadline = time.monotonic() + 60
    while any(map(running, services + workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [command_line(pid) for pid in services + workers if running(pid)] == []


UNDER_A_FULL_SCREEN_APP = """
import io
import sys
from multiprocessing import resource_tracker

from kismet_dice.strategy import workers


class Captured(io.StringIO):  # what a full-screen terminal app puts in sys.stderr
    def fileno(self) -> int:
        return -1


sys.stderr = Captured()
try:
    {start}()
except ValueError as error:
    print("refused:", error)
else:
    print(resource_tracker._resource_tracker._fd is not None, isinstance(sys.stderr, Captured))
"""


def test_worker_processes_start_while_stderr_is_captured_by_a_full_screen_app() -> None:
    def run(start: str) -> str:
        script = UNDER_A_FULL_SCREEN_APP.format(start=start)
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    # multiprocessing's own start refuses the captured stderr: what the terminal game's first solve met.
    assert run("resource_tracker.ensure_running") == "refused: bad value(s) in fds_to_keep"
    assert run("workers._start_resource_tracker") == "True True"  # running, and the app's stderr back
