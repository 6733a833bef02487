"""A whole one-player game with every die scripted."""

from __future__ import annotations

from kismet_dice import Box, Game
from kismet_dice.game import Rolled, RollOff, Scored, ScriptedDice
from tests.support.games import draws

# (rolls, holds for the re-rolls, box, the points RULES.md gives by hand)
TURNS: list[tuple[list[list[int]], list[list[int]], Box, int]] = [
    ([[1, 1, 1, 2, 3]], [], Box.ONES, 3),
    ([[2, 4, 2, 6, 2], [2, 2, 2, 5, 2]], [[0, 2, 4]], Box.TWOS, 8),
    ([[3, 3, 3, 1, 1]], [], Box.THREES, 9),
    ([[4, 1, 1, 1, 1], [4, 4, 4, 3, 5], [4, 4, 4, 4, 1]], [[0], [0, 1, 2]], Box.FOURS, 16),
    ([[5, 5, 5, 2, 2]], [], Box.FIVES, 15),
    ([[6, 6, 6, 3, 3]], [], Box.SIXES, 18),  # Basic 69: bonus 35
    ([[1, 1, 6, 6, 3]], [], Box.TWO_PAIR_SAME_COLOR, 17),
    ([[2, 2, 2, 4, 6]], [], Box.THREE_OF_A_KIND, 16),
    ([[2, 3, 4, 5, 6]], [], Box.STRAIGHT, 30),
    ([[2, 5, 5, 5, 2]], [], Box.FLUSH, 35),
    ([[2, 2, 2, 3, 3]], [], Box.FULL_HOUSE, 27),
    ([[1, 1, 1, 6, 6]], [], Box.FULL_HOUSE_SAME_COLOR, 35),
    ([[4, 4, 4, 4, 2]], [], Box.FOUR_OF_A_KIND, 43),
    ([[1, 2, 3, 4, 6]], [], Box.YARBOROUGH, 16),
    ([[6, 6, 6, 6, 6]], [], Box.KISMET, 80),
]


def test_a_whole_solo_game() -> None:
    faces = [4]  # the roll-off: one die for the one player
    for rolls, holds, _, _ in TURNS:
        faces += draws(*rolls, holds=holds)
    dice = ScriptedDice(faces)
    game = Game(["Solo"], rng=dice)
    assert game.first_player == 0 and game.current_player == 0
    for turn, (rolls, holds, box, points) in enumerate(TURNS, 1):
        assert game.round == turn and game.rolls_left == 3 and game.dice == ()
        for number, expected_dice in enumerate(rolls):
            hold = holds[number - 1] if number else []
            assert game.roll(hold) == tuple(expected_dice)
            assert game.rolls_left == 2 - number
        assert game.score(box) == points
        assert game.sheet(0)[box] == points
    assert game.is_over and game.current_player is None and game.rolls_left == 0
    sheet = game.sheet(0)
    assert (sheet.basic_total, sheet.bonus, sheet.kismet_total) == (69, 35, 299)
    assert game.total(0) == 403
    assert game.winners == (0,)
    assert dice.remaining == 0  # the engine drew exactly the dice of the rules, nothing more
    kinds = [type(event) for event in game.history]
    assert kinds.count(RollOff) == 1 and kinds.count(Scored) == 15
    assert kinds.count(Rolled) == sum(len(rolls) for rolls, *_ in TURNS)
