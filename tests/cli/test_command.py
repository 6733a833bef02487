"""The ``kismet`` command itself: its version, and the full-screen game refused without a terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

import kismet_dice
from kismet_dice.cli import NEEDS_A_TERMINAL, main

# The sources under test, whichever environment runs the tests.
SOURCES = str(Path(kismet_dice.__file__).resolve().parents[1])
# Not a measure of speed: only a guard so that a hanging game fails the test instead of the run.
GUARD_SECONDS = 120


def run_kismet(arguments: list[str], stdin: int) -> subprocess.CompletedProcess[bytes]:
    environment = {**os.environ, "PYTHONPATH": SOURCES, "TERM": "xterm-256color"}
    return subprocess.run(
        [sys.executable, "-m", "kismet_dice", *arguments],
        stdin=stdin,
        capture_output=True,
        env=environment,
        timeout=GUARD_SECONDS,
        check=False,
    )


def test_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"kismet {version('kismet-dice')}\n"


@pytest.mark.parametrize("arguments", [[], ["play"], ["play", "Ann"]])
def test_the_full_screen_game_without_a_terminal_says_so_in_one_line(arguments: list[str]) -> None:
    finished = run_kismet(arguments, stdin=subprocess.DEVNULL)
    assert finished.returncode == 2
    assert finished.stdout == b""
    assert finished.stderr.decode() == f"kismet: {NEEDS_A_TERMINAL}\n"
    assert b"\x1b" not in finished.stderr


def test_the_full_screen_game_refuses_a_terminal_whose_output_goes_to_a_pipe() -> None:
    main_end, side = os.openpty()
    try:
        finished = run_kismet([], stdin=side)
    finally:
        os.close(side)
        os.close(main_end)
    assert finished.returncode == 2
    assert b"\x1b" not in finished.stdout + finished.stderr
    assert b"kismet play --plain" in finished.stderr


def test_plain_text_still_plays_without_a_terminal() -> None:
    finished = run_kismet(["play", "--plain"], stdin=subprocess.DEVNULL)
    assert finished.returncode == 0
    assert b"Input ended" in finished.stdout
    assert b"\x1b" not in finished.stdout + finished.stderr
