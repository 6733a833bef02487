"""Every box on every distinct roll, checked against sets of rolls built straight from RULES.md.

The expected values are not computed the way the implementation computes them: each
combination is *constructed* (every straight, every flush, every full house, ...) and a
roll qualifies when it is one of the constructed ones.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kismet_dice import Box, IllegalAction, bonus, score, scores
from kismet_dice.rules import all_rolls, qualifies

FACES = range(1, 7)


def _sorted(*dice: int) -> tuple[int, ...]:
    return tuple(sorted(dice))


# Opposite faces add to 7 and share a colour.
def _same_colour(a: int, b: int) -> bool:
    return a == b or a + b == 7


KISMETS = {_sorted(f, f, f, f, f) for f in FACES}
FOURS_OF_A_KIND = {_sorted(f, f, f, f, x) for f in FACES for x in FACES}
THREES_OF_A_KIND = {_sorted(f, f, f, x, y) for f in FACES for x in FACES for y in FACES}
STRAIGHTS: set[tuple[int, ...]] = {(1, 2, 3, 4, 5), (2, 3, 4, 5, 6)}
FLUSHES = {_sorted(*dice) for low in (1, 2, 3) for dice in itertools.product((low, 7 - low), repeat=5)}
FULL_HOUSES = {_sorted(a, a, a, b, b) for a in FACES for b in FACES if a != b} | KISMETS
FULL_HOUSES_SAME_COLOUR = {_sorted(a, a, a, b, b) for a in FACES for b in FACES if _same_colour(a, b)}
TWO_PAIRS_SAME_COLOUR = {_sorted(a, a, 7 - a, 7 - a, x) for a in FACES for x in FACES} | FOURS_OF_A_KIND


def expected(box: Box, roll: tuple[int, ...]) -> int:
    total = sum(roll)
    if box.value <= 6:
        return box.value * roll.count(box.value)
    table: dict[Box, tuple[set[tuple[int, ...]], int]] = {
        Box.TWO_PAIR_SAME_COLOR: (TWO_PAIRS_SAME_COLOUR, total),
        Box.THREE_OF_A_KIND: (THREES_OF_A_KIND, total),
        Box.STRAIGHT: (STRAIGHTS, 30),
        Box.FLUSH: (FLUSHES, 35),
        Box.FULL_HOUSE: (FULL_HOUSES, total + 15),
        Box.FULL_HOUSE_SAME_COLOR: (FULL_HOUSES_SAME_COLOUR, total + 20),
        Box.FOUR_OF_A_KIND: (FOURS_OF_A_KIND, total + 25),
        Box.YARBOROUGH: (set(all_rolls()), total),
        Box.KISMET: (KISMETS, total + 50),
    }
    rolls, points = table[box]
    return points if roll in rolls else 0


def test_there_are_252_distinct_rolls() -> None:
    rolls = all_rolls()
    assert len(rolls) == len(set(rolls)) == 252
    assert set(rolls) == {_sorted(*dice) for dice in itertools.product(FACES, repeat=5)}


def test_constructed_sets_have_the_sizes_counting_gives() -> None:
    # Independent counts: 6 kismets, 2 straights, 3 colours x 6 multisets of two faces,
    # 6x5 full houses plus 6 kismets, 3 colours x 2 full houses plus 6 kismets.
    assert (len(KISMETS), len(STRAIGHTS), len(FLUSHES)) == (6, 2, 18)
    assert (len(FULL_HOUSES), len(FULL_HOUSES_SAME_COLOUR)) == (36, 12)


@pytest.mark.parametrize("box", list(Box), ids=lambda box: box.name)
def test_every_box_on_every_roll(box: Box) -> None:
    for roll in all_rolls():
        assert score(box, roll) == expected(box, roll), roll
        # Basic boxes take any roll; a Kismet-section box that qualifies never scores 0.
        assert qualifies(box, roll) == (box.value <= 6 or expected(box, roll) > 0)


def test_box_order_and_names_are_the_sheet() -> None:
    assert [box.name for box in Box] == [
        "ONES", "TWOS", "THREES", "FOURS", "FIVES", "SIXES", "TWO_PAIR_SAME_COLOR",
        "THREE_OF_A_KIND", "STRAIGHT", "FLUSH", "FULL_HOUSE", "FULL_HOUSE_SAME_COLOR",
        "FOUR_OF_A_KIND", "YARBOROUGH", "KISMET",
    ]  # fmt: skip


def test_worked_example_4_5_5_5_5() -> None:
    points = scores([4, 5, 5, 5, 5])
    assert points[Box.FIVES] == 20
    assert points[Box.TWO_PAIR_SAME_COLOR] == 24
    assert points[Box.THREE_OF_A_KIND] == 24
    assert points[Box.FOUR_OF_A_KIND] == 49
    assert points[Box.YARBOROUGH] == 24
    assert points[Box.FOURS] == 4
    assert points[Box.FLUSH] == 0  # 4 is green, 5 red
    assert points[Box.KISMET] == points[Box.FULL_HOUSE] == points[Box.STRAIGHT] == 0


def test_worked_example_four_fours() -> None:
    # 3-3-4-4-5, keep the fours and end with 4-4-4-4-6: 16 in Fours.
    assert score(Box.FOURS, [4, 4, 6, 4, 4]) == 16


def test_examples_from_the_box_descriptions() -> None:
    assert score(Box.FLUSH, [5, 5, 5, 5, 2]) == 35  # four 5's and a 2, all red
    assert score(Box.FULL_HOUSE_SAME_COLOR, [6, 6, 6, 1, 1]) == 40  # three 6's, two 1's, all black
    assert score(Box.STRAIGHT, [5, 4, 3, 2, 1]) == score(Box.STRAIGHT, [6, 2, 4, 3, 5]) == 30
    assert score(Box.STRAIGHT, [1, 2, 3, 4, 6]) == 0


# The qualification table of the computer version's help page: for a kind of roll, the
# Kismet-section boxes it can be scored in. Basic boxes always take any roll.
QUALIFICATION_TABLE = {
    "two pair same colour": (
        (1, 1, 6, 6, 3),
        {Box.TWO_PAIR_SAME_COLOR, Box.YARBOROUGH},
    ),
    "three of a kind": ((2, 2, 2, 4, 6), {Box.THREE_OF_A_KIND, Box.YARBOROUGH}),
    "straight": ((1, 2, 3, 4, 5), {Box.STRAIGHT, Box.YARBOROUGH}),
    "full house": ((2, 2, 2, 3, 3), {Box.THREE_OF_A_KIND, Box.FULL_HOUSE, Box.YARBOROUGH}),
    "full house same colour": (
        (1, 1, 1, 6, 6),
        {
            Box.TWO_PAIR_SAME_COLOR, Box.THREE_OF_A_KIND, Box.FLUSH, Box.FULL_HOUSE,
            Box.FULL_HOUSE_SAME_COLOR, Box.YARBOROUGH,
        },
    ),
    "four of a kind": (
        (4, 4, 4, 4, 2),
        {Box.TWO_PAIR_SAME_COLOR, Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND, Box.YARBOROUGH},
    ),
    "kismet": ((3, 3, 3, 3, 3), {box for box in Box if box.value > 6} - {Box.STRAIGHT}),
}  # fmt: skip


@pytest.mark.parametrize("kind", list(QUALIFICATION_TABLE))
def test_qualification_table(kind: str) -> None:
    roll, boxes = QUALIFICATION_TABLE[kind]
    for box in Box:
        assert qualifies(box, roll) == (box.value <= 6 or box in boxes), (kind, box)


def test_flush_row_of_the_qualification_table() -> None:
    flushes = list(FLUSHES)
    # The table says "sometimes" for Two Pair Same Color and Three of a Kind too, but five
    # dice of one colour show only two faces, so they always hold three of one face and
    # either four of a kind or a pair of each face: by RULES.md's definitions, always.
    always = {Box.FLUSH, Box.YARBOROUGH, Box.TWO_PAIR_SAME_COLOR, Box.THREE_OF_A_KIND}
    sometimes = {Box.FULL_HOUSE, Box.FULL_HOUSE_SAME_COLOR, Box.FOUR_OF_A_KIND, Box.KISMET}
    for box in always:
        assert all(qualifies(box, roll) for roll in flushes)
    assert not any(qualifies(Box.STRAIGHT, roll) for roll in flushes)
    for box in sometimes:
        assert any(qualifies(box, roll) for roll in flushes), box
        assert not all(qualifies(box, roll) for roll in flushes), box


@given(st.lists(st.integers(1, 6), min_size=5, max_size=5), st.randoms(use_true_random=False))
def test_scores_do_not_depend_on_the_order_of_the_dice(dice: list[int], random: object) -> None:
    shuffled = list(dice)
    random.shuffle(shuffled)  # type: ignore[attr-defined]
    assert scores(dice) == scores(shuffled) == scores(tuple(sorted(dice)))


@pytest.mark.parametrize(
    ("basic_total", "points"),
    [(0, 0), (62, 0), (63, 35), (70, 35), (71, 55), (77, 55), (78, 75), (105, 75)],
)
def test_bonus_tiers_and_their_edges(basic_total: int, points: int) -> None:
    assert bonus(basic_total) == points


@pytest.mark.parametrize(
    "dice",
    [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4], [1, 2, 3, 4, 7], ["1", 2, 3, 4, 5],
     [1.0, 2, 3, 4, 5], [True, 2, 3, 4, 5], None, "12345", 5],
)  # fmt: skip
def test_bad_dice_are_refused(dice: object) -> None:
    with pytest.raises(IllegalAction, match=r"five dice|1 to 6"):
        score(Box.YARBOROUGH, dice)  # type: ignore[arg-type]


def test_a_box_must_be_a_box() -> None:
    with pytest.raises(IllegalAction, match="not a box"):
        score("ONES", [1, 1, 1, 1, 1])  # type: ignore[arg-type]
