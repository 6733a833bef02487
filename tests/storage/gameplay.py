"""A fixed, simple way to play, so a test and a child process can play the very same game."""

from __future__ import annotations

from kismet_dice.game import Game, Roll, Score


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
