"""Benchmark: the exact distribution of perfect play and ``kismet chances``, beside the solve.

Run with the project's environment: ``.venv/bin/python bench/bench_chances.py``. Each measurement
runs in a fresh process (on the same fresh ``KISMET_HOME``) that reports its wall time, processor
time and peak memory, so the figures are printed side by side with the solve measured in the same
run: the machine is shared, and the ratios of wall time are what compare. Processor time and
memory are the measuring process's own (and its threads'): the solve's worker processes are
children of the fork server, not of it, so their share is not in those columns.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

PEAK = """
import json, resource, time
def peak():
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, workers) / 1024
def cpu():
    return sum(getattr(resource.getrusage(who), field) for who in (resource.RUSAGE_SELF,
               resource.RUSAGE_CHILDREN) for field in ("ru_utime", "ru_stime"))
"""

SOLVE = (
    PEAK
    + """
from kismet_dice.strategy.ruleset import kismet_rules
from kismet_dice.strategy.table import load_or_solve
if __name__ == "__main__":
    started, used = time.perf_counter(), cpu()
    table = load_or_solve(kismet_rules(), force=True)
    print(json.dumps({"seconds": time.perf_counter() - started, "cpu": cpu() - used, "peak_mb": peak()}))
"""
)

DISTRIBUTION = (
    PEAK
    + """
from kismet_dice.strategy.distribution import load_or_compute
from kismet_dice.strategy.ruleset import kismet_rules
from kismet_dice.strategy.table import load_or_solve
if __name__ == "__main__":
    table = load_or_solve(kismet_rules())
    started, used = time.perf_counter(), cpu()
    perfect = load_or_compute(table, force=True)
    print(json.dumps({"seconds": time.perf_counter() - started, "cpu": cpu() - used, "peak_mb": peak(),
                      "mean": perfect.mean}))
"""
)

CHANCES = (
    PEAK
    + """
import sys
from kismet_dice.rules import Box, Sheet
from kismet_dice.strategy.chances import chance
from kismet_dice.strategy.ruleset import kismet_rules
from kismet_dice.strategy.table import load_or_solve
if __name__ == "__main__":
    table = load_or_solve(kismet_rules())
    sheet = Sheet()
    for name, points in json.loads(sys.argv[1]).items():
        sheet = sheet.with_entry(Box[name], points)
    started, used = time.perf_counter(), cpu()
    found = chance(table, sheet, int(sys.argv[2]), seed=1)
    print(json.dumps({"seconds": time.perf_counter() - started, "cpu": cpu() - used, "peak_mb": peak(),
                      "chance": found.chance, "exact": found.exact}))
"""
)

# Seven boxes filled, eight open: the largest sheet the exact pass takes by default.
MID_GAME = {
    "ONES": 3,
    "TWOS": 6,
    "THREES": 9,
    "FOURS": 12,
    "TWO_PAIR_SAME_COLOR": 20,
    "STRAIGHT": 30,
    "YARBOROUGH": 22,
}


def measure(code: str, env: dict[str, str], *arguments: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", code, *arguments], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def line(what: str, figures: dict[str, float], reference: dict[str, float]) -> str:
    return (
        f"{what:<44} {figures['seconds']:8.2f} s {figures['cpu']:8.2f} s own cpu {figures['peak_mb']:7.0f} MB"
        f"   x{figures['seconds'] / reference['seconds']:.2f} of the solve's time"
    )


def main() -> None:
    env = dict(os.environ, KISMET_HOME=tempfile.mkdtemp(prefix="kismet-bench-chances-"))
    print(f"cores: {os.cpu_count()}; load average: {os.getloadavg()[0]:.1f}")
    solve = measure(SOLVE, env)
    print(line("the Kismet solve (reference)", solve, solve))
    perfect = measure(DISTRIBUTION, env)
    print(line(f"distribution of perfect play (mean {perfect['mean']:.6f})", perfect, solve))
    empty = measure(CHANCES, env, "{}", "400")
    print(line(f"chances of 400, empty sheet ({empty['chance']:.4f})", empty, solve))
    middle = measure(CHANCES, env, json.dumps(MID_GAME), "300")
    kind = "exact" if middle["exact"] else "simulated"
    print(line(f"chances of 300, 8 boxes open ({middle['chance']:.4f}, {kind})", middle, solve))


if __name__ == "__main__":
    main()
