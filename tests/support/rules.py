"""Rule sets small enough to search by brute force and to work out every position of in a moment."""

from __future__ import annotations

from kismet_dice.strategy.ruleset import RuleSet, rule_set


def tiny_rules(rolls_per_turn: int = 3) -> RuleSet:
    """Two three-faced dice, two Basic boxes with a bonus and a pair box: small enough to search."""
    boxes = [
        ("ONES", lambda roll: roll.count(1), True),
        ("THREES", lambda roll: 3 * roll.count(3), True),
        ("PAIR", lambda roll: sum(roll) + 4 if len(set(roll)) == 1 else 0, False),
    ]
    return rule_set("tiny", 2, 3, boxes, [0, 0, 0, 0, 5], rolls_per_turn)
