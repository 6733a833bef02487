"""What the pages and the API see of a table, drawn from the session. Pure functions.

Every sentence comes from :mod:`kismet_dice.session.narration`, so the web tells each event in
the same words as the terminal and plain text; the pages write no game sentences of their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Final

from pydantic_core import to_json

from kismet_dice.game import Resigned, Rolled, RollOff, Scored
from kismet_dice.rules import Box, Dice, colour_of
from kismet_dice.session import HallAdvice, Told, narration
from kismet_dice.session.tables import Change, Table
from kismet_dice.storage import HallEntry
from kismet_dice.strategy import Decision, Option, Proficiency, hold_for
from kismet_dice.web.schemas import (
    ComputerState,
    ComputerTask,
    DecisionView,
    HallChancesView,
    HallEntryView,
    OptionView,
    PlayerProficiency,
    ProficiencyView,
)


def _die(face: int) -> dict[str, object]:
    colour = colour_of(face)
    return {"face": face, "colour": colour.value, "letter": colour.letter}


_BOX_OPENINGS: Final = {
    box: f'{{"box":{to_json(box.name).decode()},"label":{to_json(box.label).decode()},"points":'
    for box in Box
}


def _number(value: int | None) -> str:
    return "null" if value is None else str(value)


def player_json(table: Table, seat: int) -> str:
    """A seat's :class:`PlayerView` as its schema writes it, written directly: the live pages are sent
    a sheet or two at every action, and the schema's fields are few and fixed (a test holds the two
    to the same bytes)."""
    game = table.session.game
    sheet = game.sheet(seat)
    level = table.session.seats[seat].level
    if seat == game.current_player and game.dice:
        options = game.options()
        boxes = ",".join(
            f"{head}{_number(options.get(box))}}}"
            for box, head in zip(_BOXES, _box_heads(sheet.entries), strict=True)
        )
    else:
        boxes = _boxes_without_options(sheet.entries)
    return (
        f'{{"seat":{seat},"name":{to_json(game.names[seat]).decode()},'
        f'"computer":{"null" if level is None else to_json(level.value).decode()},'
        f'"described":{to_json(table.session.seats[seat].describe()).decode()},"sheet":[{boxes}],'
        f'"basic_total":{sheet.basic_total},"bonus":{sheet.bonus},'
        f'"points_to_next_bonus":{_number(sheet.points_to_next_bonus)},'
        f'"kismet_total":{sheet.kismet_total},"total":{sheet.total},"win_chance":null}}'
    )


_BOXES: Final = tuple(Box)


@lru_cache(maxsize=4096)
def _box_heads(entries: tuple[int | None, ...]) -> tuple[str, ...]:
    """Each box of a sheet with these entries, written up to its option: a sheet is written again
    at every roll of its player, and only the options differ."""
    return tuple(
        f'{_BOX_OPENINGS[box]}{_number(points)},"option":'
        for box, points in zip(_BOXES, entries, strict=True)
    )


@lru_cache(maxsize=4096)
def _boxes_without_options(entries: tuple[int | None, ...]) -> str:
    """The boxes of a sheet with these entries and no dice to enter (another player's turn)."""
    return ",".join(f"{head}null}}" for head in _box_heads(entries))


def event_fields(told: Told) -> dict[str, object]:
    """An event's fields for the pages, plain values in the schema's order (:class:`EventView`)."""
    event = told.event
    fields: dict[str, object] = {
        "index": told.index,
        "kind": "",
        "text": told.text,
        "seat": None,
        "faces": [],
        "hold": [],
        "dice": [],
        "box": None,
        "points": None,
        "penalties": [],
        "zeros": [],
    }
    if isinstance(event, RollOff):
        fields.update(kind="roll_off", faces=[[seat, face] for seat, face in event.faces])
    elif isinstance(event, Rolled):
        fields.update(kind="rolled", seat=event.seat, hold=list(event.hold), dice=list(event.dice))
    elif isinstance(event, Scored):
        fields.update(
            kind="scored", seat=event.seat, box=event.box.name, points=event.points, dice=list(event.dice)
        )
    elif isinstance(event, Resigned):
        fields.update(kind="resigned", seat=event.seat, zeros=[box.name for box in event.zeros])
    else:
        penalties = [{"seat": p.seat, "box": p.box.name} for p in event.penalties]
        fields.update(kind="second_kismet", seat=event.seat, penalties=penalties)
    return fields


def event_json(told: Told) -> str:
    """An event's :class:`EventView` as its schema writes it, in one call (a test holds the two to
    the same bytes)."""
    return to_json(event_fields(told)).decode()


def turn_fields(
    table: Table,
    computer: ComputerState,
    problem: str | None,
    task: ComputerTask | None = None,
    progress: float | None = None,
    deadline: float | None = None,
    compiling: bool = False,
) -> dict[str, object]:
    session = table.session
    game = session.game
    return {
        "round": game.round,
        "leader": game.leader,
        "current_player": game.current_player,
        "dice": [_die(face) for face in game.dice],
        "rolls_left": game.rolls_left,
        "may_roll": game.may_roll,
        "may_hold": game.may_hold,
        "over": game.is_over,
        "winners": list(game.winners),
        "result": session.result() if game.is_over else None,
        "standings": list(session.standings()),
        "hall_of_fame": list(session.hall_prompts()),
        "assisted": session.assisted,
        "computer": computer,
        "computer_problem": problem if computer == "unavailable" else None,
        "computer_task": task if computer == "getting_ready" else None,
        "computer_progress": None if computer != "getting_ready" or progress is None else round(progress, 3),
        "computer_compiling": computer == "getting_ready" and compiling,
        "turn_seconds": table.turn_seconds,
        "turn_deadline": None if deadline is None else round(deadline, 3),
    }


def turn_json(
    table: Table,
    computer: ComputerState,
    problem: str | None = None,
    task: ComputerTask | None = None,
    progress: float | None = None,
    deadline: float | None = None,
    compiling: bool = False,
) -> str:
    """``TurnView.model_validate(turn_fields(...)).model_dump_json()``, written from the plain fields
    in one call: the turn goes with every action's answer and update (a test holds the two to the
    same bytes)."""
    return to_json(turn_fields(table, computer, problem, task, progress, deadline, compiling)).decode()


def game_json(
    table: Table, turn: str, players: Sequence[str], events: Sequence[str], connected: Sequence[int]
) -> bytes:
    """The JSON of the whole game, as ``GameView.model_dump_json()`` writes it (same fields, same
    order), put together from the JSON of its parts: each player's and each event's, encoded
    once by a caller that keeps them, and the turn's (``turn``: a :class:`TurnView`'s JSON). The
    game grows by an event or two per action, so encoding only what changed keeps an answer's
    cost from growing with the game."""
    return "".join(
        (
            turn[:-1],  # the turn's fields come first in a GameView: its object, still open
            ',"id":',
            to_json(table.id).decode(),
            ',"version":',
            str(table.version),
            ',"zero_kismet_counts":',
            "true" if table.session.game.house_rules.zero_kismet_counts else "false",
            ',"players":[',
            ",".join(players),
            '],"events":[',
            ",".join(events),
            '],"connected":',
            to_json(list(connected)).decode(),
            "}",
        )
    ).encode()


def touched(change: Change) -> list[int]:
    """The seats whose sheet or previews a change may have altered: whoever acted (their previews
    go or change), whoever has the turn now, and whoever a second Kismet cost a turn."""
    game = change.table.session.game
    seats = {game.current_player}
    for told in change.told:
        event = told.event
        if isinstance(event, (Rolled, Scored, Resigned)):
            seats.add(event.seat)
        elif not isinstance(event, RollOff):
            seats.add(event.seat)
            seats.update(penalty.seat for penalty in event.penalties)
    return sorted(seat for seat in seats if seat is not None)


def update_json(
    change: Change,
    turn: str,
    events: Sequence[str],
    players: Sequence[str],
    connected: Sequence[int],
    sent: float,
) -> str:
    """One change for the live pages, as an ``UpdateMessage`` (its ``model_dump_json()``): the
    new events, the turn, and only the sheets the change touched (``players``: those of
    :func:`touched`, in that order), put together from their JSON, each encoded once by the caller;
    ``sent``: the server's clock now."""
    return "".join(
        (
            '{"type":"update","since":',
            str(change.before),
            ',"version":',
            str(change.version),
            ',"events":[',
            ",".join(events),
            '],"news":',
            to_json(list(change.news)).decode(),
            ',"turn":',
            turn,
            ',"players":[',
            ",".join(players),
            '],"connected":',
            to_json(list(connected)).decode(),
            ',"sent":',
            str(round(sent, 3)),
            "}",
        )
    )


def option_view(option: Option, dice: Dice, chance: float | None = None) -> OptionView:
    """An option of the position with ``dice`` on the table, in words and as the API takes it."""
    keep = None if option.keep is None else list(option.keep)
    return OptionView(
        expected=round(option.expected, 2),
        words=narration.option(option, dice),
        keep=keep,
        hold=None if keep is None else list(hold_for(dice, keep)),
        box=option.box,
        chance=None if chance is None else round(chance, 6),
    )


def hall_chances_view(hall: HallAdvice) -> HallChancesView:
    best = hall.best_for_hall
    return HallChancesView(
        target=hall.target,
        heading=hall.heading,
        line=hall.line,
        pending=hall.pending,
        playing_for=hall.playing_for,
        best=best,
        best_mark=None if best is None else narration.BEST_FOR_HALL,
        tip=hall.tip,
    )


def advice_options(hall: HallAdvice) -> list[OptionView]:
    """The advice's options, each with its chance of a Hall of Fame total where it was worked out."""
    return [option_view(option, hall.dice, hall.chance(rank)) for rank, option in enumerate(hall.options)]


def _decision(names: tuple[str, ...], decision: Decision) -> DecisionView:
    return DecisionView(
        round=decision.turn,
        dice=list(decision.dice),
        rolls_left=decision.rolls_left,
        chosen=option_view(decision.chosen, decision.dice),
        best=option_view(decision.best, decision.dice),
        loss=round(decision.loss, 2),
        text=narration.decision(names, decision),
    )


def proficiency_view(table: Table, judged: Proficiency, standings: tuple[str, ...] = ()) -> ProficiencyView:
    players = [
        PlayerProficiency(
            seat=seat,
            name=name,
            computer=table.session.seats[seat].level,
            described=table.session.seats[seat].describe(),
            decisions=len(judged.decisions_of(seat)),
            expected_loss=round(judged.total_loss(seat), 2),
            costliest=[_decision(judged.names, d) for d in judged.costliest(narration.COSTLIEST, seat)],
        )
        for seat, name in enumerate(judged.names)
    ]
    return ProficiencyView(players=players, review=list(narration.review(judged)), standings=list(standings))


def hall_entry_view(entry: HallEntry) -> HallEntryView:
    return HallEntryView(
        rank=entry.rank, name=entry.name, total=entry.total, date=entry.date, players=entry.players
    )


def hall_view(entries: Iterable[HallEntry]) -> list[HallEntryView]:
    return [hall_entry_view(entry) for entry in entries]
