"""Benchmark: the web server under a load of concurrent games with live watchers.

N games are played by HTTP clients (a roll, then an entry in the first open box, again and
again) at a steady total rate, while W watchers per game follow each game over its WebSocket.
Three servers are measured in one run, each a real ``kismet serve`` process on 127.0.0.1:
one process on SQLite, one on PostgreSQL, and ``--workers 2`` on PostgreSQL (a throwaway
cluster from the system's binaries, as the tests start it). For each: actions per second
answered, p50/p99 answer time of an action, server CPU per action (the processor time of the
server and its workers, from /proc, over the load alone), and the messages the watchers got.

The reference, measured in the same run with the same players and no watchers, is
``floor_app.py`` under uvicorn: FastAPI answering the same requests with a fixed view, keeping
no game. The machine is shared and its speed drifts from minute to minute, so every server
(the reference too) is loaded in each of several rounds, in turn, and each server's CPU per
action is also given as a multiple of the reference's of the same round (the median over the
rounds).

Run: ``PYTHONPATH=src .venv/bin/python bench/bench_web.py [--games 20] [--watchers 3] [--rate 100]
[--seconds 12] [--rounds 4]``. The load stays on loopback; the run takes about four minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support: the servers, PostgreSQL
from tests.support.ports import free_port
from tests.support.postgres import Cluster
from tests.support.processes import Server

TICKS = os.sysconf("SC_CLK_TCK")
REFERENCE = "Reference: FastAPI answering, no game, no watchers"


def cpu_seconds(pid: int) -> float:
    """Processor time (user + system) of ``pid`` and of every process it started that is alive."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    total = (int(fields[11]) + int(fields[12])) / TICKS
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return total + sum(cpu_seconds(int(child)) for child in children)


@dataclass
class Load:
    latencies: list[float] = field(default_factory=list)
    refused: int = 0
    messages: int = 0
    last: float = 0.0  # when the last action was answered (a game may end before the run does)


async def watch(url: str, load: Load, stop: asyncio.Event) -> None:
    async with connect(url, max_queue=None) as socket:
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0.5):
                    await socket.recv()
                    load.messages += 1


async def play(
    http: httpx2.AsyncClient,
    game_id: str,
    tokens: list[str],
    gap: float,
    offset: float,
    load: Load,
    stop: asyncio.Event,
) -> None:
    view: dict[str, Any] = (await http.get(f"/api/games/{game_id}")).json()
    # Each game starts ``offset`` later than the one before: the games' actions interleave at a
    # steady total rate instead of arriving all together once every ``gap``.
    due = time.monotonic() + offset
    while not stop.is_set() and not view["over"]:
        due += gap
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        headers = {"X-Seat-Token": tokens[view["current_player"]]}
        started = time.perf_counter()
        if view["rolls_left"] == 3:
            answer = await http.post(f"/api/games/{game_id}/roll", json={}, headers=headers)
        else:
            player = view["players"][view["current_player"]]
            box = next(entry["box"] for entry in player["sheet"] if entry["option"] is not None)
            answer = await http.post(f"/api/games/{game_id}/score", json={"box": box}, headers=headers)
        load.latencies.append(time.perf_counter() - started)
        load.last = time.monotonic()
        if answer.status_code != 200:
            load.refused += 1
            view = (await http.get(f"/api/games/{game_id}")).json()
        else:
            view = answer.json()


async def run_load(
    server: Server | Floor, games: int, watchers: int, rate: float, seconds: float
) -> Measured:
    load = Load()
    stop = asyncio.Event()
    limits = httpx2.Limits(max_connections=games + 4)
    async with httpx2.AsyncClient(base_url=server.url, timeout=30, limits=limits) as http:
        created = []
        for _ in range(games):
            # Two seats: 60 actions a game (a roll and an entry a turn), 12 s at the default rate and
            # games; the rate is counted over the time the actions took, not the run's length.
            players = [{"name": "Ann"}, {"name": "Bob"}]
            body = (await http.post("/api/games", json={"players": players})).json()
            tokens = [invitation["link"].split("#seat=", 1)[1] for invitation in body["invitations"]]
            created.append((body["id"], tokens))
        ws = server.url.replace("http://", "ws://")
        tasks = [
            asyncio.create_task(watch(f"{ws}/api/games/{game_id}/live", load, stop))
            for game_id, _ in created
            for _ in range(watchers)
        ]
        await asyncio.sleep(0.5)  # every watcher has its first state
        cpu_before, started = cpu_seconds(server.pid), time.monotonic()
        tasks += [
            asyncio.create_task(play(http, game_id, tokens, games / rate, number / rate, load, stop))
            for number, (game_id, tokens) in enumerate(created)
        ]
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.gather(*tasks[len(created) * watchers :])
        cpu = cpu_seconds(server.pid) - cpu_before
        elapsed = (load.last or time.monotonic()) - started
        await asyncio.gather(*tasks[: len(created) * watchers])
    return Measured(load.latencies, cpu, elapsed, load.refused, load.messages, watchers)


@dataclass
class Measured:
    """One load on one server: each action's answer time, the server's processor time, and more."""

    latencies: list[float]
    cpu: float
    elapsed: float
    refused: int
    messages: int
    watchers: int

    @property
    def cpu_per_action(self) -> float:
        return self.cpu / max(1, len(self.latencies))


def figures(rounds: list[Measured]) -> dict[str, float]:
    """A server's figures over every round it was measured in."""
    latencies = sorted(latency for measured in rounds for latency in measured.latencies)
    actions = len(latencies)
    watched = sum(len(measured.latencies) * measured.watchers for measured in rounds)
    return {
        "actions_per_second": actions / sum(measured.elapsed for measured in rounds),
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[min(actions - 1, int(0.99 * actions))],
        "cpu_ms_per_action": 1000 * sum(measured.cpu for measured in rounds) / actions,
        "refused": sum(measured.refused for measured in rounds),
        "messages_per_watcher_action": sum(measured.messages for measured in rounds) / max(1, watched),
    }


class Floor:
    """The reference app (floor_app.py) under uvicorn, as a server of this benchmark."""

    def __init__(self) -> None:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "floor_app:app", "--port", str(port), "--no-access-log"],
            cwd=Path(__file__).parent,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(httpx2.TransportError):
                if httpx2.get(f"{self.url}/api/games/g0").status_code == 200:
                    return
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("the reference app did not start")
            time.sleep(0.1)

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--watchers", type=int, default=3)
    parser.add_argument("--rate", type=float, default=100.0, help="actions per second, all games together")
    parser.add_argument(
        "--seconds", type=float, default=12.0, help="of each load (a whole game at the defaults)"
    )
    parser.add_argument("--rounds", type=int, default=4, help="loads on each server, taken in turn")
    options = parser.parse_args()
    if not (
        1 <= options.games <= 200
        and 0 <= options.watchers <= 10
        and options.seconds <= 120
        and 1 <= options.rounds <= 20
    ):
        parser.error("keep the load bounded: games 1-200, watchers 0-10, seconds up to 120, rounds 1-20")

    cluster = Cluster.start()
    servers: dict[str, Server | Floor] = {}
    homes: list[tempfile.TemporaryDirectory[str]] = []
    try:
        servers[REFERENCE] = Floor()
        for name, arguments in (
            ("1 process, SQLite", ()),
            ("1 process, PostgreSQL", ("--database", cluster.create_database())),
            ("2 workers, PostgreSQL", ("--database", cluster.create_database(), "--workers", "2")),
        ):
            homes.append(tempfile.TemporaryDirectory())
            servers[name] = Server(Path(homes[-1].name), "--pace", "0", *arguments)
        # Every server is measured in every round, one after another and in a turning order: the
        # machine's speed drifts from minute to minute, and each round's reference is measured
        # within a minute of the servers it is compared with.
        measured: dict[str, list[Measured]] = {name: [] for name in servers}
        names = list(servers)
        for number in range(options.rounds):
            for name in names[number % len(names) :] + names[: number % len(names)]:
                watchers = 0 if name == REFERENCE else options.watchers
                load = asyncio.run(
                    run_load(servers[name], options.games, watchers, options.rate, options.seconds)
                )
                measured[name].append(load)
            print(
                f"round {number + 1}:",
                ", ".join(
                    f"{name} {1000 * rounds[-1].cpu_per_action:.2f} ms" for name, rounds in measured.items()
                ),
                flush=True,
            )
    finally:
        for server in servers.values():
            server.stop()
        for home in homes:
            home.cleanup()
        cluster.stop()

    print(
        f"\n{options.games} games, {options.watchers} watchers each, {options.rate:g} actions/s asked, "
        f"{options.rounds} rounds of {options.seconds:g} s on each server, {os.cpu_count()} cores\n"
    )
    print("| Server | Actions/s | p50 (ms) | p99 (ms) | Server CPU per action (ms) | x reference |")
    print("|---|---:|---:|---:|---:|---:|")
    reference = measured[REFERENCE]
    for name, rounds in measured.items():
        found = figures(rounds)
        # Against the reference of the same round, the median over the rounds.
        ratio = statistics.median(
            load.cpu_per_action / floor.cpu_per_action for load, floor in zip(rounds, reference, strict=True)
        )
        print(
            f"| {name} | {found['actions_per_second']:.0f} | {found['p50_ms']:.1f} | "
            f"{found['p99_ms']:.1f} | {found['cpu_ms_per_action']:.2f} | {ratio:.2f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
