"""Rolls and kept dice as multisets, with the index tables the solver walks.

Only which faces show matters for scoring, not which die shows them, so a roll of five dice
is one of 252 sorted multisets and a set of kept dice one of 462 (sizes 0 to 5). The tables
here connect them: a kept multiset plus one more die (to average over a rolled die), and a
multiset minus one die (the best-keep lattice, which finds the best sub-multiset of a roll
without scanning all 32 subsets).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

Multiset = tuple[int, ...]
"""Faces in ascending order."""

IntArray = npt.NDArray[np.intp]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class DiceSpace:
    """All multisets of ``dice`` dice (and fewer) over ``faces`` faces.

    >>> space = DiceSpace(5, 6)
    >>> len(space.rolls), sum(len(level) for level in space.levels)
    (252, 462)
    >>> space.rolls[space.roll_index[(1, 3, 3, 5, 6)]]
    (1, 3, 3, 5, 6)
    """

    dice: int
    faces: int
    levels: tuple[tuple[Multiset, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.dice < 1 or self.faces < 1:
            raise ValueError("a dice space needs at least one die and one face")
        # Fewest distinct faces first: the rows that have a given number of parents in the
        # lattice then form one contiguous tail of their level.
        levels = tuple(
            tuple(
                sorted(
                    itertools.combinations_with_replacement(range(1, self.faces + 1), size),
                    key=lambda multiset: (len(set(multiset)), multiset),
                )
            )
            for size in range(self.dice + 1)
        )
        object.__setattr__(self, "levels", levels)

    @property
    def rolls(self) -> tuple[Multiset, ...]:
        """Every roll of all the dice, each sorted ascending (by number of distinct faces, then faces)."""
        return self.levels[self.dice]

    @cached_property
    def index(self) -> tuple[dict[Multiset, int], ...]:
        """For each size, a multiset's position within its level."""
        return tuple({multiset: i for i, multiset in enumerate(level)} for level in self.levels)

    @property
    def roll_index(self) -> dict[Multiset, int]:
        return self.index[self.dice]

    @cached_property
    def roll_probabilities(self) -> FloatArray:
        """The chance of each roll when all the dice are thrown (multinomial)."""
        total = self.faces**self.dice
        return np.array([_arrangements(roll) / total for roll in self.rolls])

    @cached_property
    def children(self) -> tuple[IntArray, ...]:
        """``children[n][k, f]``: index in level n+1 of multiset k of level n plus face f+1."""
        tables = []
        for size in range(self.dice):
            nxt = self.index[size + 1]
            tables.append(
                np.array(
                    [
                        [nxt[tuple(sorted((*keep, face)))] for face in range(1, self.faces + 1)]
                        for keep in self.levels[size]
                    ],
                    dtype=np.intp,
                )
            )
        return tuple(tables)

    @cached_property
    def parents(self) -> tuple[IntArray, ...]:
        """``parents[n][k]``: indices in level n-1 of multiset k minus one die (each distinct face once).

        Rows are padded by repeating their first entry; see :attr:`parent_starts` to skip the padding.
        Level 0 has none.
        """
        tables: list[IntArray] = [np.zeros((1, 0), dtype=np.intp)]
        for size in range(1, self.dice + 1):
            prev = self.index[size - 1]
            rows = []
            for multiset in self.levels[size]:
                row = []
                for face in sorted(set(multiset)):
                    rest = list(multiset)
                    rest.remove(face)
                    row.append(prev[tuple(rest)])
                rows.append(row)
            width = max(len(row) for row in rows)
            tables.append(np.array([row + [row[0]] * (width - len(row)) for row in rows], dtype=np.intp))
        return tuple(tables)

    @cached_property
    def parent_starts(self) -> tuple[tuple[int, ...], ...]:
        """``parent_starts[n][j]``: the first row of level n with more than j distinct faces.

        Column j of ``parents[n]`` is real (not padding) exactly from that row on.

        >>> DiceSpace(2, 6).parent_starts[2]
        (0, 6)
        """
        return tuple(
            tuple(
                next((row for row, m in enumerate(level) if len(set(m)) > j), len(level))
                for j in range(self.parents[size].shape[1])
            )
            for size, level in enumerate(self.levels)
        )

    @cached_property
    def keep_offsets(self) -> tuple[int, ...]:
        """Where each size begins in the flat numbering (keeps of sizes 0 to dice-1, then the rolls)."""
        return tuple(int(start) for start in np.cumsum([0] + [len(level) for level in self.levels]))

    @cached_property
    def sub_keeps(self) -> IntArray:
        """``sub_keeps[r]``: the proper sub-multisets of roll r as flat keep indices, in the advisor's
        order (:meth:`sub_multisets`), padded with the first (keeping nothing), so that a row's best
        is the same with the padding. Made once per space: the players in lockstep asked for it with
        every batch of games, a sixth of a batch's time.

        >>> space = DiceSpace(2, 6)
        >>> space.sub_keeps[space.roll_index[(3, 3)]].tolist()
        [0, 3, 0]
        """
        rows = [[self.flat_keep(keep) for keep in self.sub_multisets(roll)] for roll in self.rolls]
        width = max(len(row) for row in rows)
        table = np.array([row + [row[0]] * (width - len(row)) for row in rows], dtype=np.intp)
        table.flags.writeable = False  # shared by every caller
        return table

    def flat_keep(self, keep: Sequence[int]) -> int:
        """The flat index of a kept multiset (sorted faces) among the keeps of sizes 0 to dice-1.

        >>> space = DiceSpace(5, 6)
        >>> space.flat_keep(()), space.flat_keep((1,)), space.flat_keep((6, 6, 6, 6))
        (0, 1, 89)
        """
        size = len(keep)
        return self.keep_offsets[size] + self.index[size][tuple(keep)]

    def sub_multisets(self, roll: Sequence[int]) -> tuple[Multiset, ...]:
        """The distinct proper sub-multisets of a roll (what may be kept before rolling again).

        >>> DiceSpace(2, 6).sub_multisets((3, 3))
        ((), (3,))
        """
        faces = tuple(sorted(roll))
        found: set[Multiset] = set()
        for size in range(len(faces)):
            found.update(itertools.combinations(faces, size))
        return tuple(sorted(found, key=lambda m: (len(m), m)))


def _arrangements(multiset: Multiset) -> int:
    """In how many orders the dice can show a multiset."""
    result = math.factorial(len(multiset))
    for count in Counter(multiset).values():
        result //= math.factorial(count)
    return result
