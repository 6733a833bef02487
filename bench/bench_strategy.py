"""Benchmark: the full Kismet solve beside the ``yatzy-solver`` package (Rust) building its
Scandinavian Yatzy table, and 10,000 games of the ``hard`` player.

Run with the project's environment: ``.venv/bin/python bench/bench_strategy.py [--rounds N]``.
``yatzy-solver`` is installed into that environment if it is missing (it is no dependency of the
project). Each measurement runs in a fresh process that reports its own wall time and peak
memory (the largest resident set of the process and of any worker it started).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

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

RUST = (
    PEAK
    + """
import time, yatzy_solver
started, used = time.perf_counter(), cpu()
solver = yatzy_solver.Solver.build(yatzy_solver.Variant("yatzy-scandinavian"))
seconds, used = time.perf_counter() - started, cpu() - used
own, workers = peak()
print(json.dumps({"seconds": seconds, "cpu_seconds": used, "peak_mb": own, "worker_peak_mb": workers}))
"""
)

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


def measure(code: str, env: dict[str, str]) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2, help="alternate rounds of each solve (default 2)")
    options = parser.parse_args()
    if importlib.util.find_spec("yatzy_solver") is None:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "yatzy-solver"], check=True)
    env = dict(os.environ, KISMET_HOME=tempfile.mkdtemp(prefix="kismet-bench-"))
    print(f"cores: {os.cpu_count()}")
    for round_ in range(1, options.rounds + 1):
        rust = measure(RUST, env)
        print(
            f"round {round_}  yatzy-solver (Rust) Scandinavian Yatzy build: {rust['seconds']:.2f} s "
            f"({rust['cpu_seconds']:.2f} s of processor time), peak {rust['peak_mb']:.0f} MB"
        )
        kismet = measure(KISMET, env)
        print(
            f"round {round_}  kismet-dice Kismet solve ({kismet['positions']:.0f} positions): "
            f"{kismet['seconds']:.2f} s ({kismet['cpu_seconds']:.2f} s of processor time), "
            f"peak {kismet['peak_mb']:.0f} MB "
            f"(each worker at most {kismet['worker_peak_mb']:.0f} MB), "
            f"expected score {kismet['expected_score']:.6f}; "
            f"ratio to Rust {kismet['seconds'] / rust['seconds']:.2f} "
            f"(processor time {kismet['cpu_seconds'] / rust['cpu_seconds']:.2f})"
        )
    simulated = measure(SIMULATE, env)
    print(
        f"10,000 hard games: {simulated['seconds']:.2f} s, mean {simulated['mean']:.2f} "
        f"(standard error {simulated['standard_error']:.2f}), peak {simulated['peak_mb']:.0f} MB"
    )


if __name__ == "__main__":
    main()
