"""The three charts of a person's statistics, the same for the command, the terminal and the web:
``totals`` (their totals over the distributions of perfect play and of the medium and easy
players), ``time`` (their totals game by game, against perfect play's mean) and ``boxes`` (their
mean in each box against perfect play's)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, get_args

from kismet_dice import charts
from kismet_dice.rules import Box
from kismet_dice.session.statistics import PlayerStatistics
from kismet_dice.strategy.reference import PERFECT, Reference

ChartKind = Literal["totals", "time", "boxes"]
CHART_KINDS: tuple[ChartKind, ...] = get_args(ChartKind)


def chart_title(kind: ChartKind, name: str) -> str:
    """
    >>> chart_title("boxes", "Ann")
    "Ann's mean points per box"
    """
    return {
        "totals": f"{name}'s totals",
        "time": f"{name}'s totals, game by game",
        "boxes": f"{name}'s mean points per box",
    }[kind]


REFERENCE_TITLE = "What perfect play and the computer players score"
"""The title of the chart of the references alone, shown where there are no finished games yet."""


def own_name(kind: ChartKind, name: str) -> str:
    """What a chart's legend calls the person's own series: their name, since the charts of every
    name are shown to anyone (a site's page, the terminal's list of names), not only to its owner.

    >>> own_name("totals", "Ann"), own_name("boxes", "Ann")
    ("Ann's games", 'Ann')
    """
    return name if kind == "boxes" else f"{name}'s games"


def reference_names(reference: Reference) -> dict[str, str]:
    """How each reference player is named in a legend."""
    return {level: level if level == PERFECT else f"{level} player" for level in reference.distributions}


def reference_lines(reference: Reference) -> dict[str, Mapping[int, float]]:
    """Each reference player's distribution of totals, under its name in a legend: the lines of a
    totals chart."""
    names = reference_names(reference)
    return {names[level]: probs for level, probs in reference.distributions.items()}


def chart_svg(kind: ChartKind, player: PlayerStatistics, reference: Reference | None) -> str:
    """The chart ``kind`` of ``player``'s unassisted games as SVG; without ``reference``, no
    reference lines (the strategy table is not at hand)."""
    title = chart_title(kind, player.name)
    own = own_name(kind, player.name)
    if kind == "totals":
        references = reference_lines(reference) if reference is not None else {}
        return charts.histogram(player.totals, title=title, references=references, name=own)
    if kind == "time":
        means = {f"{PERFECT}, mean": reference.perfect_mean} if reference is not None else {}
        return charts.line_chart(player.totals, title=title, references=means, name=own)
    labels = {box.name: box.label for box in Box}
    values = {labels[box]: mean for box, mean in player.box_mean.items()}
    marks = {labels[box]: mean for box, mean in reference.box_mean.items()} if reference is not None else {}
    return charts.bar_chart(values, title=title, name=own, reference=marks, reference_name=PERFECT)


def reference_svg(reference: Reference) -> str:
    """The totals of perfect play and of the medium and easy players alone, as SVG: what statistics
    with no finished game yet show, something to aim at."""
    return charts.histogram((), title=REFERENCE_TITLE, references=reference_lines(reference))
