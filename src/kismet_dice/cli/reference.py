"""``kismet score``, ``kismet rules`` and ``kismet help``: what a roll scores, the rules, the guide."""

from __future__ import annotations

import argparse
import json
from typing import Any

from kismet_dice.cli.errors import UserError
from kismet_dice.cli.markdown import write_markdown
from kismet_dice.rules import Box, colour_of, scores
from kismet_dice.texts import help_markdown, rules_markdown


def register(subparsers: Any) -> None:
    score = subparsers.add_parser(
        "score",
        help="show what five dice score in every box",
        description="Show what a roll of five dice would score in each of the 15 boxes.",
    )
    score.add_argument("dice", nargs="*", metavar="DIE", help="five dice, 1 to 6 (e.g. 4 5 5 5 5)")
    score.add_argument("--json", action="store_true", help='print {"ONES": 0, ...} instead of a table')
    score.set_defaults(run=run_score)

    rules = subparsers.add_parser(
        "rules",
        help="print the rules of Kismet",
        description="Print the rules of Kismet: styled on a terminal, plain text when piped.",
    )
    rules.set_defaults(run=run_rules)

    guide = subparsers.add_parser(
        "help",
        help="how to play Kismet with this program: keys, advice, invitations, saved games",
        description="Print how to play Kismet here: styled on a terminal, plain text when piped.",
    )
    guide.set_defaults(run=run_help)


def parse_dice(words: list[str]) -> tuple[int, ...]:
    """Five dice from the command line: ``4 5 5 5 5``, ``45555`` or ``4,5,5,5,5``."""
    text = " ".join(words).replace(",", " ")
    tokens = text.split()
    if len(tokens) == 1 and tokens[0].isdigit():
        tokens = list(tokens[0])
    if len(tokens) != 5 or not all(token.isdigit() and 1 <= int(token) <= 6 for token in tokens):
        raise UserError(f"give five dice from 1 to 6, like 4 5 5 5 5 (got {text.strip() or 'none'!r})")
    return tuple(int(token) for token in tokens)


def run_score(options: argparse.Namespace) -> int:
    dice = parse_dice(options.dice)  # checked here, so scoring cannot refuse them
    points = scores(dice)
    if options.json:
        print(json.dumps({box.name: points[box] for box in Box}))
        return 0
    colours = " ".join(f"{face}{colour_of(face).letter}" for face in dice)
    print(f"Dice: {colours}  (B black, R red, G green)")
    for box in Box:
        print(f"{box.value:>2}  {box.label:<22}{points[box]:>4}")
    return 0


def run_rules(options: argparse.Namespace) -> int:
    write_markdown(rules_markdown())
    return 0


def run_help(options: argparse.Namespace) -> int:
    write_markdown(help_markdown())
    return 0
