"""Eight processes submitting to the Hall of Fame at the same moment lose nothing and see no lock error."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

from kismet_dice.storage import Storage

PROCESSES = 8
SUBMISSIONS = 50

# Each process waits for the start file, then submits its 50 totals as fast as it can.
SUBMITTER = """
import os, sys, time
from pathlib import Path
from kismet_dice.storage import Storage

process, start, totals = int(sys.argv[1]), Path(sys.argv[2]), [int(t) for t in sys.argv[3].split(",")]
while not start.exists():
    time.sleep(0.001)
for number, total in enumerate(totals):
    # A new connection each time, as separate games ending would have.
    with Storage.open() as storage:
        storage.hall.submit(f"p{process}-{number}", total, players=1, computer=False, assisted=False)
"""


def test_eight_processes_fifty_submissions_each_keep_exactly_the_ten_best(home: Path, tmp_path: Path) -> None:
    chance = random.Random(20240501)
    # Totals drawn from a narrow range so that ties are common, at the cut-off too.
    totals = {p: [chance.randint(150, 330) for _ in range(SUBMISSIONS)] for p in range(PROCESSES)}
    start = tmp_path / "go"
    environment = {**os.environ, "KISMET_HOME": str(home)}
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", SUBMITTER, str(p), str(start), ",".join(map(str, totals[p]))],
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for p in range(PROCESSES)
    ]
    time.sleep(1.0)  # let every interpreter start and wait at the line
    start.touch()
    results = [worker.communicate(timeout=240) for worker in workers]
    for worker, (out, err) in zip(workers, results, strict=True):
        assert worker.returncode == 0, err
        assert err == ""
        assert out == ""

    submitted = {f"p{p}-{n}": total for p in range(PROCESSES) for n, total in enumerate(totals[p])}
    best_ten = sorted(submitted.values(), reverse=True)[:10]
    with Storage.open() as storage:
        entries = storage.hall.entries()
    assert [entry.total for entry in entries] == best_ten
    # Every entry is a real submission, entered once, under its own name.
    assert all(submitted[entry.name] == entry.total for entry in entries)
    assert len({entry.name for entry in entries}) == 10
    assert [entry.rank for entry in entries] == list(range(1, 11))
