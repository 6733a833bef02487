"""Game records: what a game needs to be played again, and its JSON encoding.

A record holds only what the rules cannot derive: the players, the house rules, every die
drawn and every decision. Points are stored too, but only as a claim: the engine replays a
record through the rules (:meth:`Game.from_record <kismet_dice.game.engine.Game.from_record>`)
and refuses one whose claims the dice do not bear out. This module only encodes and decodes;
it knows nothing of the engine, so the engine can depend on it and not the other way round.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from kismet_dice.game.events import HouseRules, Recorded, Resigned, Rolled, RollOff, Scored
from kismet_dice.rules import Box, Dice

FORMAT = "kismet-dice game"
VERSION = 1


class RecordError(ValueError):
    """A game record that is not valid JSON, not a game, or does not replay through the rules."""


def action_json(action: Recorded) -> str:
    """One action as the record's JSON holds it.

    >>> action_json(Rolled(0, (1, 2), (3, 4, 4, 6, 1)))
    '{"seat":0,"roll":[1,2],"dice":[3,4,4,6,1]}'
    >>> action_json(Resigned(1, (Box.KISMET,)))
    '{"seat":1,"resign":["KISMET"],"ended":false}'
    """
    if isinstance(action, Rolled):
        encoded: dict[str, Any] = {"seat": action.seat, "roll": list(action.hold), "dice": list(action.dice)}
    elif isinstance(action, Resigned):
        # The zeros are the record's claim, checked on replay like a score's points.
        encoded = {"seat": action.seat, "resign": [box.name for box in action.zeros], "ended": action.ended}
    else:
        encoded = {"seat": action.seat, "score": action.box.name, "points": action.points}
    return json.dumps(encoded, separators=(",", ":"))


@dataclass(frozen=True)
class Record:
    """A game as it was played: players, house rules, the roll-off rounds and every roll and entry.

    The actions are the engine's own events. A :class:`Scored` keeps its ``points`` as the
    record's claim, checked on replay; its ``dice`` are those of the roll before it, since the
    JSON form does not repeat them.

    >>> record = Record(("Ann",), HouseRules(), (RollOff(((0, 3),)),), (Rolled(0, (), (1, 2, 3, 4, 5)),))
    >>> record.to_json().partition('"house_rules":')[2]
    '{"zero_kismet_counts":false},"roll_off":[[[0,3]]],"actions":[{"seat":0,"roll":[],"dice":[1,2,3,4,5]}]}'
    >>> Record.from_json(record.to_json()) == record
    True
    """

    players: tuple[str, ...]
    house_rules: HouseRules
    roll_off: tuple[RollOff, ...]
    actions: tuple[Recorded, ...]

    def faces(self) -> list[int]:
        """Every die the game drew, in order: the roll-off's, then each roll's dice not held.

        >>> Record(("Ann",), HouseRules(), (RollOff(((0, 3),)),),
        ...        (Rolled(0, (), (1, 2, 3, 4, 5)), Rolled(0, (0, 4), (1, 6, 6, 6, 5)))).faces()
        [3, 1, 2, 3, 4, 5, 6, 6, 6]
        """
        faces = [face for round_ in self.roll_off for _, face in round_.faces]
        for action in self.actions:
            if isinstance(action, Rolled):
                faces.extend(face for position, face in enumerate(action.dice) if position not in action.hold)
        return faces

    def to_json(self) -> str:
        """The record as compact JSON; the keys and their order are the stored format, never reorder them."""
        return self.opening_json() + ",".join(map(action_json, self.actions)) + "]}"

    def opening_json(self) -> str:
        """The record's JSON up to its first action: :meth:`to_json` is this, the actions' JSON
        (:func:`action_json`) joined by commas, and ``]}``. A game that grows writes only its
        new actions (see :meth:`Game.to_json <kismet_dice.game.engine.Game.to_json>`).

        >>> Record(("Ann",), HouseRules(), (), ()).opening_json()[-11:]
        '"actions":['
        """
        record = {
            "format": FORMAT,
            "version": VERSION,
            "players": list(self.players),
            "house_rules": {"zero_kismet_counts": self.house_rules.zero_kismet_counts},
            "roll_off": [[[seat, face] for seat, face in round_.faces] for round_ in self.roll_off],
            "actions": [],
        }
        return json.dumps(record, separators=(",", ":"))[:-2]

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """A record from its JSON form; raises :class:`RecordError` if it is not a well-formed record.

        Only the form is checked here: whether the dice and decisions obey the rules is for the replay.
        """
        try:
            record = json.loads(text)
        except (ValueError, TypeError) as error:
            raise RecordError(f"the record is not JSON: {error}") from None
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            raise RecordError("this is not a kismet-dice game record")
        if record.get("version") != VERSION:
            raise RecordError(f"record version {record.get('version')!r} is not one this program reads")
        names = _field(record, "players", list, "the record")
        if not all(isinstance(name, str) for name in names):
            raise RecordError(f"the record: 'players' should be a list of names, not {names!r}")
        rules = _field(record, "house_rules", dict, "the record")
        zero_counts = _field(rules, "zero_kismet_counts", bool, "the house rules")
        return cls(
            players=tuple(names),
            house_rules=HouseRules(zero_kismet_counts=zero_counts),
            roll_off=_roll_off(_field(record, "roll_off", list, "the record")),
            actions=_actions(_field(record, "actions", list, "the record")),
        )


def _field(mapping: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in mapping:
        raise RecordError(f"{where} has no {key!r}")
    value = mapping[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{where}: {key!r} should be {kind.__name__}, not {value!r}")
    return value


def _roll_off(rounds: list[Any]) -> tuple[RollOff, ...]:
    decoded: list[RollOff] = []
    for round_ in rounds:
        if not isinstance(round_, list):
            raise RecordError("the roll-off is malformed")
        for pair in round_:
            if not (isinstance(pair, list) and len(pair) == 2 and all(type(x) is int for x in pair)):
                raise RecordError("the roll-off is malformed")
        decoded.append(RollOff(tuple((seat, face) for seat, face in round_)))
    return tuple(decoded)


def actions_from_json(text: str, *, first: int = 1, dice: Dice = ()) -> tuple[Recorded, ...]:
    """Actions of a record, from the JSON list of them: the part of a stored record that follows
    what a reader holds already. ``first`` is the number of the first (for messages) and ``dice``
    those on the table before it. Raises :class:`RecordError` as :meth:`Record.from_json` does.

    >>> actions_from_json('[{"seat":0,"score":"YARBOROUGH","points":17}]', first=2, dice=(1, 2, 3, 5, 6))
    (Scored(seat=0, box=<Box.YARBOROUGH: 14>, points=17, dice=(1, 2, 3, 5, 6)),)
    """
    try:
        actions = json.loads(text)
    except (ValueError, TypeError) as error:
        raise RecordError(f"the record is not JSON: {error}") from None
    if not isinstance(actions, list):
        raise RecordError("the record's actions are not a list")
    return _actions(actions, first=first, dice=dice)


def _actions(actions: list[Any], *, first: int = 1, dice: Dice = ()) -> tuple[Recorded, ...]:
    decoded: list[Recorded] = []
    # A score enters the dice of the roll before it; a score with no roll before it in its
    # turn gets none, and the replay refuses it.
    for number, action in enumerate(actions, first):
        where = f"action {number}"
        if not isinstance(action, dict):
            raise RecordError(f"{where} is not an object")
        seat = _field(action, "seat", int, where)
        if "roll" in action:
            hold = _field(action, "roll", list, where)
            if not all(type(position) is int for position in hold):
                raise RecordError(f"{where}: 'roll' should list dice positions, not {hold!r}")
            faces = _field(action, "dice", list, where)
            if len(faces) != 5 or not all(type(face) is int for face in faces):
                raise RecordError(f"{where}: 'dice' should be five whole numbers")
            dice = tuple(faces)
            decoded.append(Rolled(seat, tuple(hold), dice))
        elif "score" in action:
            box_name = _field(action, "score", str, where)
            if box_name not in Box.__members__:
                raise RecordError(f"{where}: no box is called {box_name!r}")
            points = _field(action, "points", int, where)
            decoded.append(Scored(seat, Box[box_name], points, dice))
            dice = ()
        elif "resign" in action:
            names = _field(action, "resign", list, where)
            if not all(isinstance(name, str) and name in Box.__members__ for name in names):
                raise RecordError(f"{where}: 'resign' should list boxes, not {names!r}")
            decoded.append(
                Resigned(seat, tuple(Box[name] for name in names), _field(action, "ended", bool, where))
            )
            # A player leaving between another's roll and score leaves those dice on the table.
        else:
            raise RecordError(f"{where} is neither a roll, a score nor a resignation")
    return tuple(decoded)
