"""The games the charts compare a person with are played once per machine, then read back."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from kismet_dice.rules import Box
from kismet_dice.strategy import reference as reference_module
from kismet_dice.strategy.reference import (
    PERFECT,
    Reference,
    Simulated,
    load_simulated,
    reference,
    reference_path,
    save,
    simulate,
)
from kismet_dice.strategy.table import StrategyTable, computing_lock


def test_the_reference_games_are_stored_beside_the_table_as_they_were_played(
    kismet_table: StrategyTable, home: Path
) -> None:
    found = reference(kismet_table, perfect_games=300, other_games=30)
    path = reference_path(kismet_table)
    assert path.parent == home / "tables"
    kept = load_simulated(kismet_table, path, 300, 30)
    assert kept is not None
    assert kept == simulate(kismet_table, 300, 30)  # the same seeded games, played again here
    assert found.distributions["medium"] == kept.distributions["medium"]
    assert found.perfect == kept.distributions["hard"]  # no exact distribution in this home
    assert found.box_mean == kept.box_mean
    # Another number of games is other games: this file is not theirs.
    assert load_simulated(kismet_table, path, 300, 31) is None


def test_stored_games_are_read_back_instead_of_played(kismet_table: StrategyTable) -> None:
    made_up = Simulated(
        {"hard": {300: 1.0}, "medium": {250: 0.25, 260: 0.75}, "easy": {150: 1.0}},
        {box.name: 2.0 for box in Box},
    )
    save(kismet_table, made_up, reference_path(kismet_table), 302, 30)
    found = reference(kismet_table, perfect_games=302, other_games=30)
    assert found.distributions == {PERFECT: {300: 1.0}, "medium": {250: 0.25, 260: 0.75}, "easy": {150: 1.0}}
    assert found.perfect_mean == 300.0


def test_a_damaged_file_is_played_again_and_written_anew(kismet_table: StrategyTable) -> None:
    path = reference_path(kismet_table)
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"format": "kismet-dice reference games"}\n\x00\x01')
    found = reference(kismet_table, perfect_games=301, other_games=30)
    kept = load_simulated(kismet_table, path, 301, 30)
    assert kept is not None and kept.distributions["easy"] == found.distributions["easy"]
    assert abs(sum(found.distributions["easy"].values()) - 1.0) < 1e-12


def test_playing_the_reference_games_tells_each_batch_played_and_reading_them_back_tells_nothing(
    kismet_table: StrategyTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    heard: list[tuple[int, int]] = []
    reference(kismet_table, perfect_games=1000, other_games=30, progress=lambda *told: heard.append(told))
    # Every game of the three players, counted from nothing to all of them, never backwards.
    assert heard[0] == (0, 1060) and heard[-1] == (1060, 1060)
    assert {total for _, total in heard} == {1060}
    done = [count for count, _ in heard]
    assert done == sorted(done) and len(set(done)) > 3  # the hard player's games in several batches
    # Another process reads the games back: nothing to play, nothing told.
    monkeypatch.setattr(reference_module, "_made", {})
    again: list[tuple[int, int]] = []
    reference(kismet_table, perfect_games=1000, other_games=30, progress=lambda *told: again.append(told))
    assert again == []


def test_games_another_process_is_playing_are_waited_for_with_its_progress_and_read_back(
    kismet_table: StrategyTable,
) -> None:
    # A lock is held on the file's lock as another process playing them would (a lock taken on a
    # file opened apart holds off a thread of this process too), then their games stored.
    path = reference_path(kismet_table)
    path.parent.mkdir(parents=True, exist_ok=True)
    theirs = Simulated(
        {"hard": {310: 1.0}, "medium": {240: 1.0}, "easy": {160: 1.0}}, {box.name: 3.0 for box in Box}
    )
    told: list[int] = []
    found: list[Reference] = []

    def chart() -> None:
        found.append(
            reference(
                kismet_table, perfect_games=303, other_games=31, progress=lambda done, _: told.append(done)
            )
        )

    with computing_lock(path) as playing:
        waiting = threading.Thread(target=chart)
        waiting.start()
        waiting.join(0.5)
        assert waiting.is_alive()  # it waits for the process playing them
        playing(150, 396)
        deadline = time.monotonic() + 10
        while not told and time.monotonic() < deadline:
            time.sleep(0.02)
        save(kismet_table, theirs, path, 303, 31)
    waiting.join(30)
    assert not waiting.is_alive()
    assert told == [150]  # told how the other was getting on, and not one game played here
    assert found[0].distributions == {PERFECT: {310: 1.0}, "medium": {240: 1.0}, "easy": {160: 1.0}}
    assert found[0].box_mean == theirs.box_mean
