"""The optimal strategy of solo Kismet: solver, stored table, advisor, computer players, proficiency.

Imports :mod:`kismet_dice.rules` and :mod:`kismet_dice.game` only, never the interfaces.
"""

from kismet_dice.strategy.advisor import Advisor, Option
from kismet_dice.strategy.computer import Computer, ComputerUnavailable
from kismet_dice.strategy.players import LEVELS, ComputerPlayer, Goal, Level, computer_player, hold_for
from kismet_dice.strategy.proficiency import Decision, Proficiency, proficiency
from kismet_dice.strategy.ruleset import RuleSet, kismet_rules, yahtzee_rules
from kismet_dice.strategy.table import StrategyTable, load_or_solve
from kismet_dice.strategy.workers import SolveFailed

__all__ = [
    "LEVELS",
    "Advisor",
    "Computer",
    "ComputerPlayer",
    "ComputerUnavailable",
    "Decision",
    "Goal",
    "Level",
    "Option",
    "Proficiency",
    "RuleSet",
    "SolveFailed",
    "StrategyTable",
    "computer_player",
    "hold_for",
    "kismet_rules",
    "load_or_solve",
    "proficiency",
    "yahtzee_rules",
]
