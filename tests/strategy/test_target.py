"""The target player, which plays for the chance of a total: against brute force on tiny rule sets."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable

import numpy as np
import pytest

from kismet_dice.game import Game, Roll, Score
from kismet_dice.strategy.advisor import Advisor, position_key, raw_points
from kismet_dice.strategy.chances import Continuations
from kismet_dice.strategy.distribution import ERROR_BOUND, Futures, future_pass
from kismet_dice.strategy.distribution import exact_survival as survival_of
from kismet_dice.strategy.players import HardPlayer
from kismet_dice.strategy.ruleset import RuleSet, tiny_rules
from kismet_dice.strategy.simulate import play_target
from kismet_dice.strategy.solver import solve
from kismet_dice.strategy.table import StrategyTable
from kismet_dice.strategy.target import TargetPlayer, TargetTurns, TurnPlan

Roll_ = tuple[int, ...]
Option = tuple[str, int]  # ("box", box) or ("keep", flat keep index)


def exact_survival(rules: RuleSet, table: StrategyTable) -> Futures:
    """Every layer's futures as exact float64 survival functions (the store rounds them), so that the
    player and the brute force below read the same numbers."""
    return survival_of(future_pass(table, keep=len(rules.boxes)))


class BruteForce:
    """Plain recursion over every roll of a tiny rule set: no lattice, no vectors."""

    def __init__(self, table: StrategyTable, target: int) -> None:
        self.rules = table.rules
        self.values = table.values
        self.target = target
        self.dense = future_pass(table, keep=len(self.rules.boxes))
        space = self.rules.space
        self.keeps = [keep for level in space.levels[: self.rules.dice] for keep in level]
        self.flat = {keep: index for index, keep in enumerate(self.keeps)}

    # -- dice
    def outcomes(self, keep: Roll_) -> list[tuple[float, Roll_]]:
        faces, rolled = self.rules.faces, self.rules.dice - len(keep)
        return [
            (faces**-rolled, tuple(sorted(keep + fresh)))
            for fresh in itertools.product(range(1, faces + 1), repeat=rolled)
        ]

    def first_rolls(self) -> list[tuple[float, Roll_]]:
        return self.outcomes(())

    def options(self, roll: Roll_, left: int, mask: int) -> list[Option]:
        boxes: list[Option] = [("box", b) for b in range(len(self.rules.boxes)) if not mask >> b & 1]
        if not left:
            return boxes
        keeps: list[Option] = [("keep", self.flat[keep]) for keep in self.rules.space.sub_multisets(roll)]
        return boxes + keeps

    def after(self, mask: int, total: int, box: int, roll: Roll_) -> tuple[int, int, int]:
        got = self.rules.boxes[box].points[self.rules.space.roll_index[roll]]
        basic = self.rules.boxes[box].basic
        return mask | 1 << box, min(total + got, self.rules.cap) if basic else total, got

    # -- the hard player's continuation (the pass's dense distributions) and its expected values
    def hard_chance(self, mask: int, total: int, needed: int) -> float:
        if mask == (1 << len(self.rules.boxes)) - 1:
            return float(self.rules.bonus[total] >= needed)
        future = self.dense.future(mask, total)
        return float(future[max(needed, 0) :].sum())

    @functools.cache  # noqa: B019 - one object per test
    def expected(self, mask: int, total: int, roll: Roll_, left: int, option: Option) -> float:
        kind, which = option
        if kind == "box":
            nxt_mask, nxt_total, got = self.after(mask, total, which, roll)
            return got + float(self.values[nxt_mask, nxt_total])
        return sum(
            chance
            * max(self.expected(mask, total, dice, left - 1, o) for o in self.options(dice, left - 1, mask))
            for chance, dice in self.outcomes(self.keeps[which])
        )

    # -- the one-step lookahead: this turn for the chance, the hard player after it
    @functools.cache  # noqa: B019
    def one_step(self, mask: int, total: int, points: int, roll: Roll_, left: int, option: Option) -> float:
        kind, which = option
        if kind == "box":
            nxt_mask, nxt_total, got = self.after(mask, total, which, roll)
            return self.hard_chance(nxt_mask, nxt_total, self.target - points - got)
        return sum(
            chance
            * max(
                self.one_step(mask, total, points, dice, left - 1, o)
                for o in self.options(dice, left - 1, mask)
            )
            for chance, dice in self.outcomes(self.keeps[which])
        )

    def one_step_choice(self, mask: int, total: int, points: int, roll: Roll_, left: int) -> Option:
        """The best chance; among equal chances the best expected total; then boxes (top first) before
        keeps (the advisor's order)."""
        options = self.options(roll, left, mask)
        chances = [self.one_step(mask, total, points, roll, left, o) for o in options]
        best = max(chances)
        tied = [o for o, c in zip(options, chances, strict=True) if c >= best - 1e-12]
        worth = [self.expected(mask, total, roll, left, o) for o in tied]
        return tied[int(np.argmax(worth))]

    # -- the optimum: every decision for the chance, to the end of the game
    @functools.cache  # noqa: B019
    def optimum(self, mask: int, total: int, points: int) -> float:
        if mask == (1 << len(self.rules.boxes)) - 1:
            return float(points + self.rules.bonus[total] >= self.target)
        left = self.rules.rolls_per_turn - 1
        return sum(
            chance * self.optimum_roll(mask, total, points, roll, left) for chance, roll in self.first_rolls()
        )

    @functools.cache  # noqa: B019
    def optimum_roll(self, mask: int, total: int, points: int, roll: Roll_, left: int) -> float:
        best = 0.0
        for kind, which in self.options(roll, left, mask):
            if kind == "box":
                nxt_mask, nxt_total, got = self.after(mask, total, which, roll)
                value = self.optimum(nxt_mask, nxt_total, points + got)
            else:
                value = sum(
                    chance * self.optimum_roll(mask, total, points, dice, left - 1)
                    for chance, dice in self.outcomes(self.keeps[which])
                )
            best = max(best, value)
        return best

    # -- a policy's exact chance of the target
    def policy_chance(self, decide: Callable[[int, int, int, Roll_, int], Option]) -> float:
        @functools.cache
        def start(mask: int, total: int, points: int) -> float:
            if mask == (1 << len(self.rules.boxes)) - 1:
                return float(points + self.rules.bonus[total] >= self.target)
            left = self.rules.rolls_per_turn - 1
            return sum(chance * at(mask, total, points, roll, left) for chance, roll in self.first_rolls())

        @functools.cache
        def at(mask: int, total: int, points: int, roll: Roll_, left: int) -> float:
            kind, which = decide(mask, total, points, roll, left)
            if kind == "box":
                nxt_mask, nxt_total, got = self.after(mask, total, which, roll)
                return start(nxt_mask, nxt_total, points + got)
            return sum(
                chance * at(mask, total, points, dice, left - 1)
                for chance, dice in self.outcomes(self.keeps[which])
            )

        return start(0, 0, 0)


def target_decision(turns: TargetTurns) -> Callable[[int, int, int, Roll_, int], Option]:
    """The target player's choice at one decision, asked one column at a time."""

    def decide(mask: int, total: int, points: int, roll: Roll_, left: int) -> Option:
        plan = turns.turn(np.array([mask]), np.array([total]), np.array([points]))
        choice = plan.decide(np.array([turns.rules.space.roll_index[roll]]), left)
        return ("keep", int(choice.keep[0])) if choice.reroll[0] else ("box", int(choice.box[0]))

    return decide


def decisions(brute: BruteForce) -> list[tuple[int, int, int, Roll_, int]]:
    """Every decision of every position a game can reach: each sheet, points, roll and rolls left."""
    rules = brute.rules
    found = []
    seen = set()
    stack = [(0, 0, 0)]
    while stack:
        mask, total, points = stack.pop()
        if (mask, total, points) in seen or mask == (1 << len(rules.boxes)) - 1:
            continue
        seen.add((mask, total, points))
        for roll in rules.space.rolls:
            for left in range(rules.rolls_per_turn):
                found.append((mask, total, points, roll, left))
            for box in range(len(rules.boxes)):
                if not mask >> box & 1:
                    nxt_mask, nxt_total, got = brute.after(mask, total, box, roll)
                    stack.append((nxt_mask, nxt_total, points + got))
    return found


@pytest.fixture(scope="module")
def tiny_table() -> StrategyTable:
    rules = tiny_rules()
    return StrategyTable(rules, solve(rules, threads=1))


@pytest.mark.parametrize("target", [8, 14, 18, 22])
def test_every_choice_is_the_brute_force_one_step_lookahead(tiny_table: StrategyTable, target: int) -> None:
    brute = BruteForce(tiny_table, target)
    turns = TargetTurns(exact_survival(tiny_table.rules, tiny_table), tiny_table, target)
    decide = target_decision(turns)
    every = decisions(brute)
    assert len(every) > 100
    for mask, total, points, roll, left in every:
        chosen = decide(mask, total, points, roll, left)
        wanted = brute.one_step_choice(mask, total, points, roll, left)
        if chosen != wanted:
            # Only options equal in both chance and expected total may differ (rounding decides).
            key = (mask, total, points, roll, left)
            assert brute.one_step(*key, chosen) == pytest.approx(brute.one_step(*key, wanted), abs=1e-12)
            assert brute.expected(mask, total, roll, left, chosen) == pytest.approx(
                brute.expected(mask, total, roll, left, wanted), abs=1e-9
            )


@pytest.mark.parametrize("target", [8, 18])
def test_each_options_chance_in_the_plan_is_the_brute_force_one_step_lookahead(
    tiny_table: StrategyTable, target: int
) -> None:
    brute = BruteForce(tiny_table, target)
    turns = TargetTurns(exact_survival(tiny_table.rules, tiny_table), tiny_table, target)
    plans: dict[tuple[int, int, int], TurnPlan] = {}
    checked = 0
    for mask, total, points, roll, left in decisions(brute):
        key = (mask, total, points)
        if key not in plans:
            plans[key] = turns.turn(np.array([mask]), np.array([total]), np.array([points]))
        plan = plans[key]
        index = tiny_table.rules.space.roll_index[roll]
        for kind, which in brute.options(roll, left, mask):
            found = plan.box_chance(which, index) if kind == "box" else plan.keep_chance(which, left)
            assert found == pytest.approx(
                brute.one_step(mask, total, points, roll, left, (kind, which)), abs=1e-12
            )
            checked += 1
    assert checked > 1000
    with pytest.raises(ValueError, match="no roll left"):
        plans[(0, 0, 0)].keep_chance(0, 0)


@pytest.mark.parametrize("target", [8, 14, 18, 22])
def test_on_the_last_turn_the_target_player_reaches_the_optimum(
    tiny_table: StrategyTable, target: int
) -> None:
    rules = tiny_table.rules
    brute = BruteForce(tiny_table, target)
    turns = TargetTurns(exact_survival(rules, tiny_table), tiny_table, target)
    last_turns = {(m, t, p) for m, t, p, _, _ in decisions(brute) if m.bit_count() == len(rules.boxes) - 1}
    assert last_turns
    for mask, total, points in last_turns:
        plan = turns.turn(np.array([mask]), np.array([total]), np.array([points]))
        assert plan.start_chance()[0] == pytest.approx(brute.optimum(mask, total, points), abs=1e-12)


@pytest.mark.parametrize("target", [8, 14, 18, 22])
def test_the_target_player_reaches_the_target_at_least_as_often_as_hard_and_never_beyond_the_optimum(
    tiny_table: StrategyTable, target: int
) -> None:
    rules = tiny_table.rules
    brute = BruteForce(tiny_table, target)
    turns = TargetTurns(exact_survival(rules, tiny_table), tiny_table, target)
    hard = brute.hard_chance(0, 0, target)
    played = brute.policy_chance(target_decision(turns))
    best = brute.optimum(0, 0, 0)
    assert hard - 1e-12 <= played <= best + 1e-12
    # Looking one turn ahead already gains something over the expected total here.
    if target in (18, 22):
        assert played > hard + 1e-3


def test_the_lockstep_games_reach_the_exact_chance(tiny_table: StrategyTable) -> None:
    target = 18
    rules = tiny_table.rules
    brute = BruteForce(tiny_table, target)
    turns = TargetTurns(future_pass(tiny_table, keep=None), tiny_table, target)
    exact = brute.policy_chance(target_decision(turns))
    played = play_target(turns, 40_000, np.random.default_rng(3))
    totals = (
        played.entries.sum(axis=1)
        + np.array(rules.bonus)[np.minimum(played.entries[:, :2].sum(axis=1), rules.cap)]
    )
    rate = float((totals >= target).mean())
    # Four standard errors: a seeded run, far from the edge.
    assert abs(rate - exact) < 4 * (exact * (1 - exact) / len(totals)) ** 0.5


def test_the_target_player_needs_every_layer(tiny_table: StrategyTable) -> None:
    with pytest.raises(ValueError, match="every layer"):
        TargetTurns(future_pass(tiny_table, keep=1), tiny_table, 10)


# --- Kismet, from a late sheet (its futures take seconds there) ------------------------------------


def late_game(advisor: Advisor, seed: int) -> Game:
    """A game played by the hard player until four boxes are open."""
    game = Game(["Tess"], rng=random.Random(seed))
    hard = HardPlayer(advisor)
    while len(game.sheet(0).open_boxes) > 4:
        game.apply(hard.choose(game))
    return game


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_on_kismet_the_target_players_chances_beat_each_hard_continuation_and_its_last_roll_the_best_box(
    kismet_table: StrategyTable, seed: int
) -> None:
    advisor = Advisor(kismet_table)
    game = late_game(advisor, seed)
    sheet = game.sheet(0)
    rules = kismet_table.rules
    mask, total = position_key(sheet, rules.cap)
    continuations = Continuations(kismet_table, sheet)
    futures = future_pass(kismet_table, (mask, total), keep=None)
    target = int(advisor.start_value(sheet)) + 15
    player = TargetPlayer(futures, kismet_table, target)
    plan = player.turns.turn(np.array([mask]), np.array([total]), np.array([raw_points(sheet)]))
    assert player.choose(game) == Roll()
    for left in (2, 1, 0):
        game.roll()  # every die rolled again: the decisions below are looked at, not taken
        ranked = continuations.options(game.dice, left, target, advisor)
        roll = rules.space.roll_index[tuple(sorted(game.dice))]
        choice = plan.decide(np.array([roll]), left)
        # A keep's chance in ``ranked`` plays the rest of the turn as the hard player does; the target
        # player plays it for the chance, so its best is at least as good as every option there.
        # (The futures' chances are within their stated bound of the exact ones of ``ranked``.)
        assert choice.chance[0] >= max(option.chance for option in ranked) - ERROR_BOUND
        action = player.choose(game)
        assert action in game.legal_actions()
    assert isinstance(action, Score)
    found = next(option for option in ranked if option.option.box is action.box)
    assert found.chance == pytest.approx(max(option.chance for option in ranked), abs=2 * ERROR_BOUND)


def test_on_kismet_an_unreachable_target_is_played_as_the_hard_player(kismet_table: StrategyTable) -> None:
    advisor = Advisor(kismet_table)
    game = late_game(advisor, 5)
    futures = future_pass(kismet_table, position_key(game.sheet(0), kismet_table.rules.cap), keep=None)
    player = TargetPlayer(futures, kismet_table, 2000)
    hard = HardPlayer(advisor)
    assert player.level == "target"
    while not game.is_over:
        action = player.choose(game)
        assert action == hard.choose(game)
        game.apply(action)
    assert game.sheet(0).is_full
