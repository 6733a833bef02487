"""Games for tests: every die written out in the order the engine draws it, and a fixed simple
way to play, so a test and a child process can play the very same game."""

from __future__ import annotations

import random
from collections.abc import Sequence

from kismet_dice import Box, Game
from kismet_dice.game import Roll, Score, ScriptedDice, SecondKismet
from kismet_dice.session import Seat, Session, Setup, local_session
from kismet_dice.storage import Storage


def play_turn(game: Game, *rolls: Sequence[int], box: Box, holds: Sequence[Sequence[int]] = ()) -> int:
    """Roll the given dice (re-rolls hold ``holds[i]``) and score ``box``; the dice must come true."""
    for number, dice in enumerate(rolls):
        hold = holds[number - 1] if number else ()
        assert game.roll(hold) == tuple(dice)
    return game.score(box)


def draws(*rolls: Sequence[int], holds: Sequence[Sequence[int]] = ()) -> list[int]:
    """The dice the engine draws for a turn: every die of the first roll, then only the unheld ones."""
    faces = list(rolls[0])
    for hold, dice in zip(holds, rolls[1:], strict=True):
        faces.extend(face for position, face in enumerate(dice) if position not in hold)
    return faces


def scripted(names: Sequence[str], faces: Sequence[int]) -> tuple[Game, ScriptedDice]:
    dice = ScriptedDice(faces)
    return Game(names, rng=dice), dice


def take_turn_step(game: Game) -> None:
    """One action: roll, roll again keeping the first two dice, then score in the first open box."""
    if not game.dice:
        game.apply(Roll())
    elif game.rolls_left == 2:
        game.apply(Roll((0, 1)))
    else:
        seat = game.current_player
        assert seat is not None
        game.apply(Score(game.sheet(seat).open_boxes[0]))


def finished_two_player_game(storage: Storage) -> Session:
    """Ann (6 6 6 6 5 every turn) and Bob (1 1 1 1 2 every turn), played to the end and kept:
    each turn one roll, entered in the top open box. Ann's total is the higher."""
    faces = [6, 1]  # the roll-off: Ann begins
    for _ in range(15):
        faces += [6, 6, 6, 6, 5] + [1, 1, 1, 1, 2]
    session = local_session(storage, Setup((Seat("Ann"), Seat("Bob"))), rng=ScriptedDice(faces))
    while not session.game.is_over:
        seat = session.game.current_player
        assert seat is not None
        session.roll(seat)
        session.act(seat, Score(session.game.sheet(seat).open_boxes[0]))
    return session


def hall_with_one_place_between(storage: Storage, session: Session) -> tuple[int, int]:
    """Nine entries halfway between the game's two totals: both qualify until one of them enters.
    Returns the two totals."""
    first, second = session.game.total(0), session.game.total(1)
    for number in range(9):
        storage.hall.submit(f"P{number}", (first + second) // 2, players=1, computer=False, assisted=False)
    return first, second


LATE_TURN = (6, 6, 6, 6, 5)
"""Every turn of :func:`late_solo_faces` but the last rolls these and enters them in the top open box."""


def late_solo_faces(open_boxes: int, last: Sequence[int] = (2, 3, 4, 5, 5), tail: int = 60) -> list[int]:
    """The dice of a solo game that leaves ``open_boxes`` boxes open (each turn one roll of
    :data:`LATE_TURN`, entered in the top open box), then rolls ``last``, then ``tail`` more dice
    (fours) for whatever comes after. The first die is the roll-off's (a solo game has one too)."""
    return [1] + [*LATE_TURN] * (15 - open_boxes) + [*last] + [4] * tail


def play_top_boxes(session: Session, turns: int) -> None:
    """``turns`` turns of one roll each, entered in the top open box (the game of :func:`late_solo_faces`)."""
    for _ in range(turns):
        session.roll(0)
        session.act(0, Score(session.game.sheet(0).open_boxes[0]))


def fill_hall(storage: Storage, totals: Sequence[int]) -> None:
    """Hall of Fame entries with ``totals``, as games of one player."""
    for number, total in enumerate(totals):
        storage.hall.submit(f"P{number}", total, players=1, computer=False, assisted=False)


def random_game(seed: int, players: int, actions: int, names: Sequence[str] = ()) -> Game:
    """A game of ``players`` (named ``names``, else P0, P1, ...) after up to ``actions`` legal
    actions chosen at random from ``seed``; the dice come from the same generator."""
    rng = random.Random(seed)
    game = Game(list(names[:players]) or [f"P{n}" for n in range(players)], rng=rng)
    for _ in range(actions):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def second_kismet_game() -> Game:
    """Ann's five fives in Kismet, Bob's 1 2 3 4 5 in Yarborough, then Ann's turn ends on five
    fives again: her second Kismet, which costs Bob a turn."""
    game = Game(["Ann", "Bob"], rng=ScriptedDice([6, 2, 5, 5, 5, 5, 5, 1, 2, 3, 4, 6, 5, 5, 5, 5, 5, 5]))
    for action in (Roll(), Score(Box.KISMET), Roll(), Roll((0, 1, 2, 3)), Score(Box.YARBOROUGH), Roll()):
        game.apply(action)
    game.apply(Score(Box.FIVES))
    assert any(isinstance(event, SecondKismet) for event in game.history)
    return game


# The Basic boxes of both sheets hold 63 (three of each face), then four more boxes: both sheets
# reach the same position (filled boxes, Basic total) with different points elsewhere.
BASIC = [(1, 1, 1, 2, 3), (2, 2, 2, 1, 3), (3, 3, 3, 1, 2), (4, 4, 4, 1, 2), (5, 5, 5, 1, 2), (6, 6, 6, 1, 2)]
MORE = [Box.TWO_PAIR_SAME_COLOR, Box.THREE_OF_A_KIND, Box.STRAIGHT, Box.FLUSH]
ANN = [(1, 2, 3, 4, 6), (6, 6, 6, 5, 4), (1, 2, 3, 4, 5), (1, 1, 2, 3, 5)]
BOB = [(1, 1, 2, 3, 5), (2, 2, 2, 1, 3), (1, 1, 2, 3, 5), (2, 3, 4, 5, 6)]


def late_game(then: Sequence[int] = (6, 6, 6, 6, 6)) -> Game:
    """Ann and Bob, ten boxes filled each: the same position (filled boxes, Basic total), Ann ahead;
    the dice drawn after that are ``then``."""
    return _after_the_basic_section(list(zip(ANN, BOB, MORE, strict=True)), then)


def kismets_game(then: Sequence[int]) -> Game:
    """Ann and Bob, ten boxes filled each (the Basic section, Kismet and three more): the same
    position, each Kismet box holding a Kismet (Ann's five fives, Bob's five threes); the dice
    drawn after that are ``then``."""
    kismets = ((5, 5, 5, 5, 5), (3, 3, 3, 3, 3), Box.KISMET)
    return _after_the_basic_section([kismets, *zip(ANN[:3], BOB[:3], MORE[:3], strict=True)], then)


def _after_the_basic_section(
    later: Sequence[tuple[Sequence[int], Sequence[int], Box]], then: Sequence[int]
) -> Game:
    """Ann and Bob each fill the Basic section with 63 (the same dice), then take the turns
    ``later`` (Ann's dice, Bob's, the box both fill); the dice drawn after that are ``then``."""
    turns = [(dice, box) for dice, box in zip(BASIC, list(Box)[:6], strict=True)]
    faces = [6, 1]  # the roll-off: Ann begins
    for dice, _ in turns:
        faces += draws(dice) + draws(dice)
    for ann, bob, _ in later:
        faces += draws(ann) + draws(bob)
    faces += list(then)
    game, _ = scripted(("Ann", "Bob"), faces)
    for dice, box in turns:
        play_turn(game, dice, box=box)
        play_turn(game, dice, box=box)
    for ann, bob, box in later:
        play_turn(game, ann, box=box)
        play_turn(game, bob, box=box)
    return game
