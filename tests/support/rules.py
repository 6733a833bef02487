"""Rule sets small enough to search by brute force and to work out every position of in a moment."""

from __future__ import annotations

from kismet_dice.strategy.ruleset import tiny_rules

__all__ = ["tiny_rules"]
