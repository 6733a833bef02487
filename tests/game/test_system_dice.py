"""The server's dice: the system's random bytes, a block at a time, every face exactly as likely."""

from __future__ import annotations

import itertools
from collections import Counter

from kismet_dice.game import SystemDice
from kismet_dice.game.dice_source import _forget_after_fork


def test_every_byte_value_read_gives_each_face_equally_often_or_is_dropped() -> None:
    every_byte = bytes(range(256))
    dice = SystemDice(read=lambda n: every_byte[:n])
    faces = [dice.randint(1, 6) for _ in range(252)]  # one block: 252 bytes give faces, 4 are dropped
    assert Counter(faces) == dict.fromkeys(range(1, 7), 42)


def test_the_system_is_asked_once_for_a_block_not_once_a_die() -> None:
    asked: list[int] = []

    def read(n: int) -> bytes:
        asked.append(n)
        return bytes(itertools.islice(itertools.cycle(range(6)), n))

    dice = SystemDice(read=read)
    faces = [dice.randint(1, 6) for _ in range(300)]
    assert asked == [SystemDice.BLOCK, SystemDice.BLOCK]
    assert faces[:7] == [1, 2, 3, 4, 5, 6, 1]


def test_a_forked_process_does_not_roll_its_parents_dice() -> None:
    blocks = iter([bytes([0] * SystemDice.BLOCK), bytes([5] * SystemDice.BLOCK)])
    dice = SystemDice(read=lambda n: next(blocks))
    assert dice.randint(1, 6) == 1  # the parent's block is read
    _forget_after_fork()  # what a fork runs in the child
    assert dice.randint(1, 6) == 6  # the child reads a block of its own


def test_a_range_other_than_a_die_comes_from_the_system_directly() -> None:
    dice = SystemDice(read=lambda n: b"")  # never read for these
    assert all(1 <= dice.randint(1, 20) <= 20 for _ in range(100))
