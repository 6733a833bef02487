"""Games of several players: the roll-off, rounds, the second Kismet, and a shared win."""

from __future__ import annotations

import random

import pytest

from kismet_dice import Box, Game, HouseRules
from kismet_dice.game import Penalty, Scored, ScriptedDice, SecondKismet
from tests.support.games import play_turn, scripted

ANN, BOB, CID = 0, 1, 2


def test_roll_off_ties_roll_again_among_themselves() -> None:
    # Ann 5, Bob 5, Cid 2: Ann and Bob roll again, 3 and 6: Bob begins.
    game, dice = scripted(["Ann", "Bob", "Cid"], [5, 5, 2, 3, 6])
    assert game.first_player == game.current_player == game.leader == BOB
    assert dice.remaining == 0


def test_play_moves_to_the_left_from_the_first_player() -> None:
    game, _ = scripted(["Ann", "Bob", "Cid"], [1, 2, 6] + [1, 2, 3, 4, 6] * 4)
    assert game.current_player == CID
    order = []
    for _ in range(4):
        order.append(game.current_player)
        game.roll()
        game.score(game.sheet(game.current_player or 0).open_boxes[0])
    assert order == [CID, ANN, BOB, CID]
    assert game.round == 2


def second_kismet_game(house_rules: HouseRules | None = None) -> Game:
    """Three players; Bob leads; Cid rolls a second Kismet in the middle of round 2."""
    faces = [2, 5, 1]  # roll-off: Bob begins; rounds go Bob, Cid, Ann
    faces += [1, 2, 3, 4, 5]  # Bob: Straight
    faces += [3, 3, 3, 3, 3]  # Cid: Kismet
    faces += [6, 6, 6, 1, 1]  # Ann: Full House Same Color
    faces += [1, 1, 2, 3, 4]  # Bob: Ones
    faces += [4, 4, 1, 4, 4, 4]  # Cid: holds four 4s and rolls the fifth: a second Kismet
    faces += [2, 2, 2, 5, 5] * 6  # the dice for the rest of the test
    game = Game(["Ann", "Bob", "Cid"], rng=ScriptedDice(faces), house_rules=house_rules)
    assert play_turn(game, [1, 2, 3, 4, 5], box=Box.STRAIGHT) == 30
    assert play_turn(game, [3, 3, 3, 3, 3], box=Box.KISMET) == 65
    assert play_turn(game, [6, 6, 6, 1, 1], box=Box.FULL_HOUSE_SAME_COLOR) == 40
    assert game.round == 2 and game.current_player == BOB
    assert play_turn(game, [1, 1, 2, 3, 4], box=Box.ONES) == 2
    assert game.current_player == CID
    return game


def test_second_kismet_zeroes_the_others_skips_the_round_and_moves_the_lead() -> None:
    game = second_kismet_game()
    points = play_turn(game, [4, 4, 1, 4, 4], [4, 4, 4, 4, 4], holds=[[0, 1, 3, 4]], box=Box.FOURS)
    assert points == 20  # scored by the general rule, no extra points
    # Zeros in the open box nearest the top: Ann's Ones, Bob's Twos (his Ones is filled).
    assert game.sheet(ANN)[Box.ONES] == 0
    assert game.sheet(BOB)[Box.TWOS] == 0
    assert game.sheet(CID)[Box.ONES] is None  # the roller's own sheet is untouched
    event = game.history[-1]
    assert event == SecondKismet(CID, (Penalty(ANN, Box.ONES), Penalty(BOB, Box.TWOS)))
    # Ann's turn in round 2 is skipped; Cid leads round 3 and every round after it.
    assert game.round == 3 and game.leader == CID and game.current_player == CID
    order = []
    for _ in range(6):
        order.append(game.current_player)
        play_turn(game, [2, 2, 2, 5, 5], box=game.sheet(game.current_player or 0).open_boxes[-1])
    assert order == [CID, ANN, BOB, CID, ANN, BOB]
    assert game.round == 5


def test_five_of_a_kind_is_no_second_kismet_without_a_kismet_score() -> None:
    game, _ = scripted(["Ann", "Bob"], [6, 1] + [5] * 5 + [1, 2, 3, 4, 6] + [5] * 5)
    play_turn(game, [5, 5, 5, 5, 5], box=Box.KISMET)
    play_turn(game, [1, 2, 3, 4, 6], box=Box.KISMET)  # Bob scratches his Kismet box
    play_turn(game, [5, 5, 5, 5, 5], box=Box.FIVES)  # Ann: second Kismet
    assert isinstance(game.history[-1], SecondKismet)
    assert game.sheet(BOB)[Box.ONES] == 0


@pytest.mark.parametrize(("zero_counts", "second"), [(False, False), (True, True)])
def test_house_rule_a_zero_in_the_kismet_box_counts(zero_counts: bool, second: bool) -> None:
    faces = [6, 1] + [1, 2, 3, 4, 6] + [1, 2, 3, 4, 6] + [5] * 5
    game = Game(["Ann", "Bob"], rng=ScriptedDice(faces), house_rules=HouseRules(zero_counts))
    play_turn(game, [1, 2, 3, 4, 6], box=Box.KISMET)  # Ann scratches Kismet: a zero
    play_turn(game, [1, 2, 3, 4, 6], box=Box.YARBOROUGH)
    play_turn(game, [5, 5, 5, 5, 5], box=Box.FIVES)
    assert isinstance(game.history[-1], SecondKismet) is second
    assert game.sheet(BOB)[Box.ONES] == (0 if second else None)
    assert game.current_player == (ANN if second else BOB)


def test_solo_second_kismet_only_scores_the_dice() -> None:
    game, _ = scripted(["Solo"], [3] + [2] * 5 + [2] * 5)
    play_turn(game, [2] * 5, box=Box.KISMET)
    assert play_turn(game, [2] * 5, box=Box.FULL_HOUSE_SAME_COLOR) == 30
    assert game.history[-1] == SecondKismet(0, ())
    assert game.round == 3 and game.current_player == 0


def test_a_player_with_a_full_sheet_is_skipped_until_the_end() -> None:
    # Bob's second Kismets fill Ann's sheet with zeros faster than she fills it herself.
    rng = random.Random(7)
    game = Game(["Ann", "Bob"], rng=rng)
    while not game.is_over:
        seat = game.current_player
        assert seat is not None and game.sheet(seat).open_boxes
        game.roll()
        game.score(game.sheet(seat).open_boxes[-1])
    assert all(game.sheet(seat).is_full for seat in (ANN, BOB))


def test_shared_win_on_equal_totals() -> None:
    # Roll-off 4-4, then 2-6: Bob begins. Both roll 1-2-3-4-6 every turn and fill the same boxes.
    game, dice = scripted(["Ann", "Bob"], [4, 4, 2, 6] + [1, 2, 3, 4, 6] * 30)
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.roll()
        game.score(game.sheet(seat).open_boxes[0])
    # Ones 1, Twos 2, Threes 3, Fours 4, Sixes 6, Yarborough 16: 32 each, no bonus.
    assert game.total(ANN) == game.total(BOB) == 32
    assert game.winners == (ANN, BOB)
    assert dice.remaining == 0
    assert sum(isinstance(event, Scored) for event in game.history) == 30


def test_winner_is_the_highest_total() -> None:
    game, _ = scripted(["Ann", "Bob"], [6, 1] + [6, 6, 6, 6, 6] + [1, 2, 3, 4, 6] + [1, 2, 3, 4, 6] * 28)
    while not game.is_over:
        seat = game.current_player or 0
        game.roll()
        game.score(Box.KISMET if game.sheet(seat)[Box.KISMET] is None else game.sheet(seat).open_boxes[0])
    # Both fill the other boxes alike (32 points); only Ann's Kismet box holds 80.
    assert (game.total(ANN), game.total(BOB)) == (80 + 32, 32)
    assert game.winners == (ANN,)


@pytest.mark.parametrize(
    ("dice", "zero_counts", "expected"),
    [((5, 5, 5, 5, 5), False, True), ((1, 2, 3, 4, 6), False, False), ((1, 2, 3, 4, 6), True, True)],
)
def test_a_kismet_box_holding_a_kismet_makes_the_next_five_of_a_kind_a_second_one(
    dice: tuple[int, ...], zero_counts: bool, expected: bool
) -> None:
    house_rules = HouseRules(zero_kismet_counts=zero_counts)
    game = Game(["Ann", "Bob"], rng=ScriptedDice([6, 2, *dice]), house_rules=house_rules)
    assert not game.has_kismet(0)  # an open Kismet box takes the first Kismet
    play_turn(game, dice, box=Box.KISMET)
    assert game.has_kismet(0) is expected and not game.has_kismet(1)
