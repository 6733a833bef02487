"""Games as JSON records, and loading them back by replaying every action through the rules.

A record holds only what the rules cannot derive: the players, the house rules, every die
drawn and every decision. Points are stored too, but only as a check: loading recomputes
everything, so a tampered record is refused instead of trusted.
"""

from __future__ import annotations

import json
from typing import Any

from kismet_dice.game.dice_source import DiceSource, ScriptedDice, ScriptExhausted
from kismet_dice.game.engine import Game
from kismet_dice.game.events import HouseRules, Rolled, RollOff, Scored
from kismet_dice.rules import Box, IllegalAction

FORMAT = "kismet-dice game"
VERSION = 1


class RecordError(ValueError):
    """A game record that is not valid JSON, not a game, or does not replay through the rules."""


def game_to_json(game: Game) -> str:
    roll_off: list[list[list[int]]] = []
    actions: list[dict[str, Any]] = []
    for event in game.history:
        if isinstance(event, RollOff):
            roll_off.append([[seat, face] for seat, face in event.faces])
        elif isinstance(event, Rolled):
            actions.append({"seat": event.seat, "roll": list(event.hold), "dice": list(event.dice)})
        elif isinstance(event, Scored):
            actions.append({"seat": event.seat, "score": event.box.name, "points": event.points})
    record = {
        "format": FORMAT,
        "version": VERSION,
        "players": list(game.names),
        "house_rules": {"zero_kismet_counts": game.house_rules.zero_kismet_counts},
        "roll_off": roll_off,
        "actions": actions,
    }
    return json.dumps(record, separators=(",", ":"))


def _field(mapping: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in mapping:
        raise RecordError(f"{where} has no {key!r}")
    value = mapping[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{where}: {key!r} should be {kind.__name__}, not {value!r}")
    return value


def _faces(record: dict[str, Any]) -> list[int]:
    """Every die of the record in the order the game drew them."""
    faces: list[int] = []
    for round_ in _field(record, "roll_off", list, "the record"):
        if not isinstance(round_, list):
            raise RecordError("the roll-off is malformed")
        for pair in round_:
            if not (isinstance(pair, list) and len(pair) == 2 and all(type(x) is int for x in pair)):
                raise RecordError("the roll-off is malformed")
            faces.append(pair[1])
    for number, action in enumerate(_field(record, "actions", list, "the record"), 1):
        if not isinstance(action, dict):
            raise RecordError(f"action {number} is not an object")
        if "roll" in action:
            hold = _field(action, "roll", list, f"action {number}")
            dice = _field(action, "dice", list, f"action {number}")
            if len(dice) != 5 or not all(type(face) is int for face in dice):
                raise RecordError(f"action {number}: 'dice' should be five whole numbers")
            held = {p for p in hold if type(p) is int}
            faces.extend(face for position, face in enumerate(dice) if position not in held)
    return faces


def game_from_json(text: str | bytes, rng: DiceSource | None = None) -> Game:
    try:
        record = json.loads(text)
    except (ValueError, TypeError) as error:
        raise RecordError(f"the record is not JSON: {error}") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError("this is not a kismet-dice game record")
    if record.get("version") != VERSION:
        raise RecordError(f"record version {record.get('version')!r} is not one this program reads")
    names = _field(record, "players", list, "the record")
    rules = _field(record, "house_rules", dict, "the record")
    zero_counts = _field(rules, "zero_kismet_counts", bool, "the house rules")
    script = ScriptedDice(_faces(record))
    try:
        game = Game(names, rng=script, house_rules=HouseRules(zero_kismet_counts=zero_counts))
        _replay(game, record["actions"])
    except RecordError:
        raise
    except IllegalAction as error:
        raise RecordError(f"the record breaks the rules: {error}") from None
    except ScriptExhausted:
        raise RecordError("the record's roll-off does not settle a first player") from None
    except ValueError as error:
        raise RecordError(f"the record holds a die that no die shows: {error}") from None
    replayed = [[[s, f] for s, f in e.faces] for e in game.history if isinstance(e, RollOff)]
    if replayed != record["roll_off"] or script.remaining:
        raise RecordError("the record's roll-off does not match its dice")
    game._use_dice_source(rng if rng is not None else _system_dice())
    return game


def _replay(game: Game, actions: list[dict[str, Any]]) -> None:
    for number, action in enumerate(actions, 1):
        where = f"action {number}"
        seat = _field(action, "seat", int, where)
        if seat != game.current_player:
            raise RecordError(f"{where} is by seat {seat}, but it was seat {game.current_player}'s turn")
        if "roll" in action:
            dice = game.roll(action["roll"])
            if list(dice) != action["dice"]:
                raise RecordError(f"{where}: the held dice do not match the dice before the roll")
        elif "score" in action:
            box_name = _field(action, "score", str, where)
            if box_name not in Box.__members__:
                raise RecordError(f"{where}: no box is called {box_name!r}")
            points = game.score(Box[box_name])
            if points != _field(action, "points", int, where):
                raise RecordError(
                    f"{where}: {box_name} scores {points} with those dice, not {action['points']}"
                )
        else:
            raise RecordError(f"{where} is neither a roll nor a score")


def _system_dice() -> DiceSource:
    import secrets

    return secrets.SystemRandom()
