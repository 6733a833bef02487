"""A throwaway PostgreSQL cluster for the tests, from the system's own binaries.

``initdb`` in a new temporary directory, ``pg_ctl start`` on a free port (TCP on 127.0.0.1 and a
private socket directory), one database per test, ``pg_ctl stop`` at the end. As root the cluster
runs as the ``postgres`` user (PostgreSQL refuses to run as root). Password authentication is on
for TCP, so the tests connect as a site would: with a user and password in the URL. If the
cluster cannot start, the fixture fails the run: nothing is skipped.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg

from tests.support.ports import free_port, taken

USER = "kismet"
PASSWORD = "tell-no-one-7f3a"
START_ATTEMPTS = 5


def binaries() -> Path:
    """The newest ``/usr/lib/postgresql/<version>/bin`` (Debian's layout), or the one on PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    raise RuntimeError("PostgreSQL is not installed: apt-get install -y postgresql (make test does it)")


@dataclass
class Cluster:
    """A running cluster; :meth:`create_database` gives a URL of a new, empty database."""

    directory: Path
    port: int
    bin: Path
    as_user: tuple[str, ...]

    @classmethod
    def start(cls) -> Cluster:
        bin = binaries()
        directory = Path(tempfile.mkdtemp(prefix="kismet-pg-"))
        as_user: tuple[str, ...] = ()
        if os.geteuid() == 0:
            postgres = pwd.getpwnam("postgres")
            os.chown(directory, postgres.pw_uid, postgres.pw_gid)
            as_user = ("runuser", "-u", "postgres", "--")
        cluster = cls(directory, free_port(), bin, as_user)
        password_file = directory / "password"
        password_file.write_text(PASSWORD + "\n")
        if as_user:
            os.chown(password_file, pwd.getpwnam("postgres").pw_uid, -1)
        (directory / "sockets").mkdir()
        if as_user:
            os.chown(directory / "sockets", pwd.getpwnam("postgres").pw_uid, -1)
        cluster._run(
            "initdb",
            "-D",
            str(directory / "data"),
            "-U",
            USER,
            f"--pwfile={password_file}",
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            "-E",
            "UTF8",
            "--no-instructions",
        )
        for _ in range(START_ATTEMPTS):
            try:
                cluster._start_server()
                return cluster
            except RuntimeError as error:
                if not taken(str(error)):
                    raise
                cluster.port = free_port()  # another test's server took it first
        raise RuntimeError(f"PostgreSQL found its port taken {START_ATTEMPTS} times")

    def _start_server(self) -> None:
        options = f"-p {self.port} -k {self.directory / 'sockets'} -h 127.0.0.1 -c fsync=off"
        self._run(
            "pg_ctl",
            "-D",
            str(self.directory / "data"),
            "-l",
            str(self.directory / "log"),
            "-o",
            options,
            "-w",
            "start",
        )

    def _processes(self) -> list[int]:
        """The server's processes: the postmaster and every process it started."""
        postmaster = int((self.directory / "data" / "postmaster.pid").read_text().split()[0])
        children = Path(f"/proc/{postmaster}/task/{postmaster}/children").read_text().split()
        return [postmaster, *map(int, children)]

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Every process of the server stopped (SIGSTOP) until the ``with`` ends: a database that
        keeps its connections open and answers nothing, as a host that hangs does."""
        stopped = self._processes()
        for pid in stopped:
            # A backend of a connection just closed may be gone by now, or have ended but not yet
            # been reaped: the postmaster, continued first, reaps it before it is sent SIGCONT.
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)
        try:
            yield
        finally:
            for pid in stopped:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)

    @contextmanager
    def down(self) -> Iterator[None]:
        """The server stopped at once (its connections dropped) until the ``with`` ends, then
        started again on the same port with the same data."""
        self._run("pg_ctl", "-D", str(self.directory / "data"), "-m", "immediate", "-w", "stop")
        try:
            yield
        finally:
            self._start_server()

    def _run(self, program: str, *arguments: str) -> None:
        command: Sequence[str] = [*self.as_user, str(self.bin / program), *arguments]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            log = self.directory / "log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stderr.strip()}\n{tail}")

    def url(self, database: str = "postgres", password: str = PASSWORD) -> str:
        return f"postgresql://{USER}:{password}@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        name = f"test_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name} TEMPLATE template0".encode())
        return self.url(name)

    def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)".encode())

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.directory / "data"), "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)
