"""What the web pages and the API see of a game, built from the engine's state. Pure values."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from kismet_dice.game import Game, Roll, Rolled, RollOff, Scored, SecondKismet
from kismet_dice.rules import Box, Sheet, colour_of
from kismet_dice.web.tables import Table


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
    events: list[EventView]


def _die(face: int) -> DieView:
    colour = colour_of(face)
    return DieView(face=face, colour=colour.value, letter=colour.letter)  # type: ignore[arg-type]


def _player(game: Game, seat: int, options: dict[Box, int]) -> PlayerView:
    sheet: Sheet = game.sheet(seat)
    mine = options if seat == game.current_player else {}
    return PlayerView(
        seat=seat,
        name=game.names[seat],
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


def game_view(table: Table) -> GameView:
    game = table.game
    options = game.options()
    rolls = [action for action in game.legal_actions() if isinstance(action, Roll)]
    return GameView(
        id=table.id,
        version=len(game.history),
        players=[_player(game, seat, options) for seat in range(len(game.names))],
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
        events=[_event(event) for event in game.history],
    )
