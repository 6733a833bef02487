"""Benchmark: the Kismet solve, distribution of perfect play and futures beside dlangk/yatzy (Rust).

Run with the project's environment:
``.venv/bin/python bench/bench_strategy.py [--rounds N] [--dlangk DIR]``.

The reference is dlangk/yatzy's solver of Scandinavian Yatzy (1,430,528 positions), two of its
programs on two threads, built with the reference's build script: ``DIR`` is the folder that holds
``yatzy-precompute`` and ``yatzy-density`` (else ``$KISMET_DLANGK``; without either the reference
is skipped). Each round measures, side by side:

* its ``yatzy-precompute --force`` (the expected-value table) and our solve;
* its ``yatzy-precompute --oracle --force`` (every decision stored, about 3 GB on disk), then
  ``yatzy-density --theta 0 --oracle`` (the exact distribution of the final score; it reads the
  expected-value table the first program wrote in the same folder), and our distribution of
  perfect play from an empty sheet (the table loaded beforehand, not timed);
* our futures build (``stored_futures.compute_and_store``) and the size of its store on disk.

Each measurement runs in a fresh process that reports its own wall time, processor time (of it
and of every process under it) and peak memory (the largest resident set of the process and of
any process it started); the reference's programs run under such a process. The machine is
shared, so the ratios within one round are the figures to compare; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

PEAK = """
import json, os, resource, threading, time
TICKS = os.sysconf("SC_CLK_TCK")
def descendants(pid):
    # The solver's workers are the forkserver's children, not this process's: the whole tree, from /proc.
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as children:
                for child in map(int, children.read().split()):
                    found += [child, *descendants(child)]
        except OSError:  # the task or the process ended meanwhile
            pass
    return found
def own_and_reaped(pid):
    # Processor seconds of a process (utime, stime) and of the children it has waited for (cutime, cstime).
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(field) for field in fields[11:15]) / TICKS
worker_peak_kb = 0
def sample():
    global worker_peak_kb
    while True:
        for pid in descendants(os.getpid()):
            try:
                with open(f"/proc/{pid}/status") as status:
                    for line in status:
                        if line.startswith("VmHWM:"):
                            worker_peak_kb = max(worker_peak_kb, int(line.split()[1]))
            except OSError:
                pass
        time.sleep(0.2)
threading.Thread(target=sample, daemon=True).start()
def peak():
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers = max(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, worker_peak_kb)
    return own / 1024, workers / 1024
def cpu():
    # Processor seconds of this process (all its threads) and of every process under it, those
    # still running (the forkserver, its workers) and those they have waited for.
    return sum(own_and_reaped(pid) for pid in (os.getpid(), *descendants(os.getpid())))
"""

KISMET = (
    PEAK
    + """
import time
from kismet_dice.strategy.ruleset import kismet_rules
from kismet_dice.strategy.solver import count_positions, solve
from kismet_dice.strategy.table import StrategyTable, save, table_path
rules = kismet_rules()
started, used = time.perf_counter(), cpu()
values = solve(rules)
seconds, used = time.perf_counter() - started, cpu() - used
own, workers = peak()
save(StrategyTable(rules, values), table_path(rules))
print(json.dumps({"seconds": seconds, "cpu_seconds": used, "peak_mb": own, "worker_peak_mb": workers,
                  "expected_score": float(values[0, 0]), "positions": count_positions(rules)}))
"""
)

DISTRIBUTION = (
    PEAK
    + """
import time
from kismet_dice.strategy.distribution import perfect_play
from kismet_dice.strategy.ruleset import kismet_rules
from kismet_dice.strategy.table import load_or_solve
table = load_or_solve(kismet_rules())
started, used = time.perf_counter(), cpu()
perfect = perfect_play(table)
seconds, used = time.perf_counter() - started, cpu() - used
own, workers = peak()
print(json.dumps({"seconds": seconds, "cpu_seconds": used, "peak_mb": own, "worker_peak_mb": workers,
                  "mean": perfect.mean, "std": perfect.std}))
"""
)

FUTURES = (
    PEAK
    + """
import sys, time
from pathlib import Path
from kismet_dice.strategy.ruleset import kismet_rules
from kismet_dice.strategy.stored_futures import compute_and_store, futures_path
from kismet_dice.strategy.table import load_or_solve
directory = Path(sys.argv[1])
table = load_or_solve(kismet_rules())
started, used = time.perf_counter(), cpu()
compute_and_store(table, directory=directory)
seconds, used = time.perf_counter() - started, cpu() - used
own, workers = peak()
files = [path for path in futures_path(table.rules, directory).rglob("*") if path.is_file()]
print(json.dumps({"seconds": seconds, "cpu_seconds": used, "peak_mb": own, "worker_peak_mb": workers,
                  "disk_mb": sum(path.stat().st_blocks * 512 for path in files) / 2**20,
                  "files": len(files)}))
"""
)

# One of the reference's programs, run under the measuring process: its processor time reaches
# this process's counters once it is waited for, its peak memory the children's maximum.
REFERENCE = (
    PEAK
    + """
import subprocess, sys, time
log, *command = sys.argv[1:]
started, used = time.perf_counter(), cpu()
with open(log, "w") as output:
    done = subprocess.run(command, stdout=output, stderr=subprocess.STDOUT)
seconds, used = time.perf_counter() - started, cpu() - used
own, workers = peak()
if done.returncode:
    sys.exit(f"{' '.join(command)} failed ({done.returncode}); its output is in {log}")
print(json.dumps({"seconds": seconds, "cpu_seconds": used, "peak_mb": own, "worker_peak_mb": workers}))
"""
)

SIMULATE = (
    PEAK
    + """
import time
from kismet_dice.strategy.ruleset import kismet_rules
from kismet_dice.strategy.simulate import run, summarise
from kismet_dice.strategy.table import load_or_solve
table = load_or_solve(kismet_rules())
started, used = time.perf_counter(), cpu()
played = run("hard", 10_000, seed=1, table=table)
seconds, used = time.perf_counter() - started, cpu() - used
summary = summarise("hard", played)
own, workers = peak()
print(json.dumps({"seconds": seconds, "cpu_seconds": used, "peak_mb": own, "worker_peak_mb": workers,
                  "mean": summary.mean, "standard_error": summary.standard_error}))
"""
)

PROGRAMS = ("yatzy-precompute", "yatzy-density")
REFERENCE_THREADS = "2"
STATE_FILE = Path("data/strategy_tables/all_states.bin")
STATE_HEADER_BYTES = 16  # magic, version, number of states, theta; then one float32 per state


def measure(code: str, env: dict[str, str], *arguments: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", code, *arguments], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode:
        sys.exit(f"a measurement failed ({done.returncode}):\n{done.stderr.strip()}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def figures(result: dict[str, float]) -> str:
    """Wall time, processor time and the peak of the process or of any process under it."""
    return (
        f"{result['seconds']:.2f} s ({result['cpu_seconds']:.2f} s of processor time), "
        f"peak {max(result['peak_mb'], result['worker_peak_mb']):.0f} MB"
    )


def target(name: str, value: float, limit: float, unit: str = "") -> str:
    return f"{name} {value:.2f}{unit} (target <= {limit:g}{unit}: {'met' if value <= limit else 'missed'})"


def reference_folder(given: str | None) -> Path | None:
    """The folder of the reference's two programs, from ``--dlangk`` or ``$KISMET_DLANGK``."""
    folder = given or os.environ.get("KISMET_DLANGK")
    if not folder:
        return None
    path = Path(folder).resolve()
    missing = [name for name in PROGRAMS if not os.access(path / name, os.X_OK)]
    if missing:
        sys.exit(f"{path} holds no {' or '.join(missing)}: give the folder with the reference's programs")
    return path


class Reference:
    """The reference's programs, each run in a folder of its own files (removed after the round)."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        self.folder = folder
        self.base = Path(tempfile.mkdtemp(prefix="kismet-bench-dlangk-"))
        self.env = dict(env, YATZY_BASE_PATH=str(self.base), RAYON_NUM_THREADS=REFERENCE_THREADS)

    def run(self, name: str, program: str, *arguments: str) -> dict[str, float]:
        log = self.base / f"{name}.log"
        return measure(REFERENCE, self.env, str(log), str(self.folder / program), *arguments)

    def log(self, name: str) -> str:
        return (self.base / f"{name}.log").read_text()

    def expected_score(self) -> float:
        """The expected-value table's value of the empty sheet (the first state in the file)."""
        with open(self.base / STATE_FILE, "rb") as stored:
            stored.seek(STATE_HEADER_BYTES)
            value: float = struct.unpack("<f", stored.read(4))[0]
        return value

    def distribution(self) -> dict[str, float]:
        """Mean and standard deviation of the exact distribution the density program wrote."""
        written: dict[str, float] = json.loads((self.base / "density" / "density_0.json").read_text())
        return {"mean": written["mean"], "std": written["std_dev"]}

    def remove(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2, help="rounds of every measurement (default 2)")
    parser.add_argument(
        "--dlangk",
        metavar="DIR",
        help="folder of the reference's yatzy-precompute and yatzy-density (default: $KISMET_DLANGK)",
    )
    options = parser.parse_args()
    folder = reference_folder(options.dlangk)
    home = tempfile.mkdtemp(prefix="kismet-bench-")
    # The compiled kernels' cache of this run: empty at first, as on a player's new machine.
    env = dict(os.environ, KISMET_HOME=home, NUMBA_CACHE_DIR=str(Path(home) / "compiled"))
    print(f"cores: {os.cpu_count()}; load average: {os.getloadavg()[0]:.1f}")
    if folder is None:
        print(
            "reference (dlangk/yatzy) skipped: build it with the reference's build script, then pass "
            "--dlangk DIR (the folder of yatzy-precompute and yatzy-density) or set KISMET_DLANGK"
        )
    try:
        first_calls(env)
        for round_ in range(1, options.rounds + 1):
            run_round(round_, folder, env)
        # Twice: the first compiles the hard player's loops, which nothing before needed.
        for when in ("first, compiling included", "again"):
            simulated = measure(SIMULATE, env)
            print(
                f"10,000 hard games ({when}): {simulated['seconds']:.2f} s, mean {simulated['mean']:.2f} "
                f"(standard error {simulated['standard_error']:.2f}), peak {simulated['peak_mb']:.0f} MB"
            )
    finally:
        shutil.rmtree(home, ignore_errors=True)


def measure_futures(env: dict[str, str]) -> dict[str, float]:
    """The futures built into a store of their own, removed afterwards (a quarter of a gigabyte)."""
    store = tempfile.mkdtemp(prefix="kismet-bench-futures-")
    try:
        return measure(FUTURES, env, store)
    finally:
        shutil.rmtree(store, ignore_errors=True)


def first_calls(env: dict[str, str]) -> None:
    """The solve, the distribution and the futures on a machine that has compiled nothing yet: each
    compiles the kernels it needs (kept on disk for every later process), counted in its time."""
    solve = measure(KISMET, env)
    perfect = measure(DISTRIBUTION, env)
    futures = measure_futures(env)
    print(
        f"first calls, compiling included: solve {figures(solve)}; distribution {figures(perfect)}; "
        f"futures {figures(futures)}"
    )


def run_round(round_: int, folder: Path | None, env: dict[str, str]) -> None:
    label = f"round {round_}"
    reference = Reference(folder, env) if folder is not None else None
    try:
        precompute: dict[str, float] | None = None
        oracle: dict[str, float] | None = None
        density: dict[str, float] | None = None
        if reference is not None:
            precompute = reference.run("precompute", "yatzy-precompute", "--force")
            print(
                f"{label}  dlangk/yatzy precompute (Scandinavian Yatzy, {REFERENCE_THREADS} threads): "
                f"{figures(precompute)}, expected score {reference.expected_score():.5f}"
            )
        solve = measure(KISMET, env)
        workers = (
            f" (the process {solve['peak_mb']:.0f} MB, each worker at most {solve['worker_peak_mb']:.0f} MB)"
            if solve["worker_peak_mb"]
            else ""
        )
        print(
            f"{label}  kismet-dice solve ({solve['positions']:.0f} positions): {figures(solve)}{workers}, "
            f"expected score {solve['expected_score']:.6f}"
        )
        if reference is not None:
            oracle = reference.run("oracle", "yatzy-precompute", "--oracle", "--force")
            print(f"{label}  dlangk/yatzy oracle build: {figures(oracle)}")
            output = str(reference.base / "density")
            density = reference.run(
                "density", "yatzy-density", "--theta", "0", "--oracle", "--output", output
            )
            found = reference.distribution()
            # Its table is the one the precompute wrote; were it missing, the program would solve afresh.
            solved_again = "Precomputing strategy table" in reference.log("density")
            again = " (it solved its table again)" if solved_again else ""
            print(
                f"{label}  dlangk/yatzy density with the oracle: {figures(density)}, "
                f"mean {found['mean']:.6f}, standard deviation {found['std']:.4f}{again}"
            )
            reference.remove()
        perfect = measure(DISTRIBUTION, env)
        print(
            f"{label}  kismet-dice distribution of perfect play: {figures(perfect)}, "
            f"mean {perfect['mean']:.6f}, standard deviation {perfect['std']:.4f}"
        )
        futures = measure_futures(env)
        print(
            f"{label}  kismet-dice futures build: {figures(futures)}, "
            f"{futures['disk_mb']:.0f} MB on disk ({futures['files']:.0f} files)"
        )
    finally:
        if reference is not None:
            reference.remove()
    ratios = []
    if precompute is not None:
        ratios.append(target("solve / dlangk precompute", solve["seconds"] / precompute["seconds"], 1.0))
    ratios += [
        target("distribution / solve", perfect["seconds"] / solve["seconds"], 2),
        target("futures / solve", futures["seconds"] / solve["seconds"], 10),
        target("futures peak", max(futures["peak_mb"], futures["worker_peak_mb"]) / 1024, 1, " GB"),
        target("futures on disk", futures["disk_mb"], 300, " MB"),
    ]
    print(f"{label}  wall-time ratios and limits: " + "; ".join(ratios))
    if precompute is not None and oracle is not None and density is not None:
        print(
            f"{label}  for comparison: processor-time ratio solve / dlangk precompute "
            f"{solve['cpu_seconds'] / precompute['cpu_seconds']:.2f}; dlangk's own density / precompute "
            f"{density['seconds'] / precompute['seconds']:.2f}, "
            f"oracle build + density / precompute "
            f"{(oracle['seconds'] + density['seconds']) / precompute['seconds']:.2f}"
        )


if __name__ == "__main__":
    main()
