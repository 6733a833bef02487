"""Games for tests: every die written out in the order the engine draws it, and a fixed simple
way to play, so a test and a child process can play the very same game."""

from __future__ import annotations

from collections.abc import Sequence

from kismet_dice import Box, Game
from kismet_dice.game import Roll, Score, ScriptedDice


def play_turn(game: Game, *rolls: Sequence[int], box: Box, holds: Sequence[Sequence[int]] = ()) -> int:
    """Roll the given dice (re-rolls hold ``holds[i]``) and score ``box``; the dice must come true."""
    for number, dice in enumerate(rolls):
        hold = holds[number - 1] if number else ()
        assert game.roll(hold) == tuple(dice)
    return game.score(box)


def draws(*rolls: Sequence[int], holds: Sequence[Sequence[int]] = ()) -> list[int]:
    """The dice the engine draws for a turn: every die of the first roll, then only the unheld ones."""
    faces = list(rolls[0])
    for hold, dice in zip(holds, rolls[1:], strict=True):
        faces.extend(face for position, face in enumerate(dice) if position not in hold)
    return faces


def scripted(names: Sequence[str], faces: Sequence[int]) -> tuple[Game, ScriptedDice]:
    dice = ScriptedDice(faces)
    return Game(names, rng=dice), dice


def take_turn_step(game: Game) -> None:
    """One action: roll, roll again keeping the first two dice, then score in the first open box."""
    if not game.dice:
        game.apply(Roll())
    elif game.rolls_left == 2:
        game.apply(Roll((0, 1)))
    else:
        seat = game.current_player
        assert seat is not None
        game.apply(Score(game.sheet(seat).open_boxes[0]))
