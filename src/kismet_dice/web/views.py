"""What the web pages and the API see of a game, built from the engine's state. Pure values."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from kismet_dice.game import Roll, Rolled, RollOff, Scored, SecondKismet
from kismet_dice.rules import Box, Sheet, colour_of
from kismet_dice.strategy import Decision, Option, Proficiency
from kismet_dice.strategy.players import hold_for
from kismet_dice.web.computer import ComputerState
from kismet_dice.web.tables import Table

Level = Literal["easy", "medium", "hard"]


class View(BaseModel):
    model_config = ConfigDict(frozen=True)


class DieView(View):
    face: int = Field(ge=1, le=6)
    colour: Literal["black", "red", "green"]
    letter: Literal["B", "R", "G"] = Field(description="the colour as a letter, for colour-blind players")


class BoxView(View):
    box: str = Field(description="the box's name, as the API takes it, e.g. FULL_HOUSE")
    label: str
    points: int | None = Field(description="the entry; null while the box is open")
    option: int | None = Field(
        description="what the dice on the table would score here, for the player whose turn it is"
    )


class PlayerView(View):
    seat: int
    name: str
    computer: Level | None = Field(description="a computer player's level; null for a person")
    sheet: list[BoxView]
    basic_total: int
    bonus: int
    points_to_next_bonus: int | None
    kismet_total: int
    total: int


class PenaltyView(View):
    seat: int
    box: str


class EventView(View):
    kind: Literal["roll_off", "rolled", "scored", "second_kismet"]
    seat: int | None = None
    faces: list[list[int]] = Field(default=[], description="roll-off: [seat, face] pairs")
    hold: list[int] = Field(default=[], description="rolled: the positions held")
    dice: list[int] = []
    box: str | None = None
    points: int | None = None
    penalties: list[PenaltyView] = []


class GameView(View):
    id: str
    version: int = Field(description="grows with every event; a page keeps the highest it has seen")
    players: list[PlayerView]
    zero_kismet_counts: bool
    round: int
    leader: int
    current_player: int | None
    dice: list[DieView]
    rolls_left: int
    may_roll: bool = Field(description="whether the player whose turn it is may roll now")
    may_hold: bool = Field(description="whether dice may be held for that roll")
    over: bool
    winners: list[int]
    hall_of_fame: list[int] = Field(
        description="once the game is over: the seats whose total qualifies for the Hall of Fame "
        "and who have not yet answered its prompt"
    )
    assisted: bool = Field(
        description="someone asked for advice, which keeps the game out of the Hall of Fame"
    )
    computer: ComputerState = Field(
        description="the server's computer (hard players, advice, proficiency): not_loaded until first "
        "needed, getting_ready while its strategy table loads (the first time on a server it is "
        "worked out, which takes a few seconds), ready, or unavailable if that failed"
    )
    events: list[EventView]


class OptionView(View):
    expected: float = Field(description="the expected final game total after this choice, with perfect play")
    words: str = Field(description="the option in words, e.g. 'keep 3 3, roll 3' or 'score Full House'")
    keep: list[int] | None = Field(description="the dice values to keep before rolling again; null for a box")
    hold: list[int] | None = Field(description="the positions (0-4) of those dice, as the roll takes them")
    box: str | None = Field(description="the box to fill now; null for a roll")


class Advice(View):
    options: list[OptionView] = Field(description="every option, best first")
    game: GameView


class DecisionView(View):
    round: int = Field(description="the player's turn number, 1-15")
    dice: list[int]
    rolls_left: int
    chosen: OptionView
    best: OptionView
    loss: float = Field(description="expected points the choice gave away against the best one")


class PlayerProficiency(View):
    seat: int
    name: str
    computer: Level | None
    decisions: int = Field(description="how many choices the player made")
    expected_loss: float = Field(description="expected points lost against perfect play, over the game")
    costliest: list[DecisionView] = Field(description="the choices that cost most, costliest first")


class ProficiencyView(View):
    players: list[PlayerProficiency]


def _die(face: int) -> DieView:
    colour = colour_of(face)
    return DieView(face=face, colour=colour.value, letter=colour.letter)  # type: ignore[arg-type]


def _player(table: Table, seat: int, options: dict[Box, int]) -> PlayerView:
    game = table.game
    sheet: Sheet = game.sheet(seat)
    mine = options if seat == game.current_player else {}
    return PlayerView(
        seat=seat,
        name=game.names[seat],
        computer=table.seats[seat].level,  # type: ignore[arg-type]
        sheet=[
            BoxView(box=box.name, label=box.label, points=sheet[box], option=mine.get(box)) for box in Box
        ],
        basic_total=sheet.basic_total,
        bonus=sheet.bonus,
        points_to_next_bonus=sheet.points_to_next_bonus,
        kismet_total=sheet.kismet_total,
        total=sheet.total,
    )


def _event(event: RollOff | Rolled | Scored | SecondKismet) -> EventView:
    if isinstance(event, RollOff):
        return EventView(kind="roll_off", faces=[[seat, face] for seat, face in event.faces])
    if isinstance(event, Rolled):
        return EventView(kind="rolled", seat=event.seat, hold=list(event.hold), dice=list(event.dice))
    if isinstance(event, Scored):
        return EventView(
            kind="scored", seat=event.seat, box=event.box.name, points=event.points, dice=list(event.dice)
        )
    return EventView(
        kind="second_kismet",
        seat=event.seat,
        penalties=[PenaltyView(seat=p.seat, box=p.box.name) for p in event.penalties],
    )


def game_view(table: Table, computer: ComputerState) -> GameView:
    game = table.game
    options = game.options()
    rolls = [action for action in game.legal_actions() if isinstance(action, Roll)]
    return GameView(
        id=table.id,
        version=len(game.history),
        players=[_player(table, seat, options) for seat in range(len(game.names))],
        zero_kismet_counts=game.house_rules.zero_kismet_counts,
        round=game.round,
        leader=game.leader,
        current_player=game.current_player,
        dice=[_die(face) for face in game.dice],
        rolls_left=game.rolls_left,
        may_roll=bool(rolls),
        may_hold=any(action.hold for action in rolls),
        over=game.is_over,
        winners=list(game.winners),
        hall_of_fame=list(table.hall_seats),
        assisted=table.assisted,
        computer=computer,
        events=[_event(event) for event in game.history],
    )


def option_view(option: Option, dice: tuple[int, ...]) -> OptionView:
    """An option of the position with ``dice`` on the table, in words and as the API takes it."""
    keep = None if option.keep is None else list(option.keep)
    return OptionView(
        expected=round(option.expected, 2),
        words=option.describe(),
        keep=keep,
        hold=None if keep is None else list(hold_for(dice, keep)),
        box=None if option.box is None else option.box.name,
    )


COSTLIEST = 3
"""How many of a player's costliest decisions are shown."""


def _decision(decision: Decision) -> DecisionView:
    return DecisionView(
        round=decision.turn,
        dice=list(decision.dice),
        rolls_left=decision.rolls_left,
        chosen=option_view(decision.chosen, decision.dice),
        best=option_view(decision.best, decision.dice),
        loss=round(decision.loss, 2),
    )


def proficiency_view(table: Table, proficiency: Proficiency) -> ProficiencyView:
    players = []
    for seat, name in enumerate(proficiency.names):
        decisions = proficiency.decisions_of(seat)
        # The costliest first; among equals, the earliest. Choices that lost nothing are not listed.
        costly = sorted((d for d in decisions if round(d.loss, 2) > 0), key=lambda d: -d.loss)[:COSTLIEST]
        players.append(
            PlayerProficiency(
                seat=seat,
                name=name,
                computer=table.seats[seat].level,  # type: ignore[arg-type]
                decisions=len(decisions),
                expected_loss=round(proficiency.total_loss(seat), 2),
                costliest=[_decision(decision) for decision in costly],
            )
        )
    return ProficiencyView(players=players)
