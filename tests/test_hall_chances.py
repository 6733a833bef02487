"""Advice beside each option's expected total: its chance of a Hall of Fame total (one more than the
list's tenth entry), exact from late positions, with one line instead where there are no chances."""

from __future__ import annotations

import numpy as np
import pytest

from kismet_dice.game import ScriptedDice
from kismet_dice.session import HallChances, Seat, Session, Setup, local_session, narration
from kismet_dice.storage import Storage, qualifies
from kismet_dice.strategy import Advisor, Computer, StrategyTable
from kismet_dice.strategy.advisor import position_key, raw_points
from kismet_dice.strategy.chances import Continuations
from kismet_dice.strategy.distribution import ERROR_BOUND, Futures
from kismet_dice.strategy.target import TargetTurns
from tests.support.futures import late_futures
from tests.support.games import fill_hall, late_solo_faces, play_top_boxes


def late_session(storage: Storage, open_boxes: int) -> Session:
    """A solo game with ``open_boxes`` boxes open, its last turn's first roll 2 3 4 5 5 on the table."""
    session = local_session(storage, Setup((Seat("Ann"),)), rng=ScriptedDice(late_solo_faces(open_boxes)))
    play_top_boxes(session, 15 - open_boxes)
    session.roll(0)
    assert session.game.dice == (2, 3, 4, 5, 5)
    return session


def test_each_option_gets_its_exact_chance_of_beating_the_tenth_entry(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    session = late_session(storage, 3)
    advisor = Advisor(kismet_table)
    bar = round(advisor.start_value(session.game.sheet(0)))
    # The ninth and tenth entries tie: a total equal to them would not enter, one more would.
    fill_hall(storage, [bar + 40, bar + 30, bar + 20, bar + 10, bar + 5, bar + 3, bar + 2, bar + 1, bar, bar])
    totals = [entry.total for entry in storage.hall.entries()]
    chances = HallChances()
    options = session.advise(0, advisor)
    asked = session.hall_advice(0, options, chances)
    assert asked.target == bar + 1
    assert qualifies(bar + 1, totals) and not qualifies(bar, totals)
    assert asked.pending and asked.chances is None and asked.note is None
    assert asked.heading == f"Hall of Fame total ({bar + 1}+)"

    answered = chances.work_out(asked, advisor)
    expected = Continuations(kismet_table, session.game.sheet(0)).options(
        session.game.dice, session.game.rolls_left, bar + 1, advisor
    )
    assert [found.option for found in expected] == list(options)
    assert answered.chances == pytest.approx([found.chance for found in expected], abs=1e-12)
    assert answered.chances is not None and 0 < max(answered.chances) < 1
    # Asked again in the same turn, the answer is remembered: it comes with the advice at once.
    again = session.hall_advice(0, session.advise(0, advisor), chances)
    assert not again.pending and again.chances == answered.chances


def test_with_fewer_than_ten_entries_one_line_says_any_total_would_enter(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    session = late_session(storage, 3)
    fill_hall(storage, [400] * 9)
    advisor = Advisor(kismet_table)
    advice = session.hall_advice(0, session.advise(0, advisor), HallChances())
    assert advice.note == advice.about == narration.HALL_ANY_TOTAL
    assert "fewer than ten entries" in advice.note
    assert advice.target is None and advice.heading is None and advice.chances is None
    assert not advice.pending


def test_early_in_a_game_the_advice_says_from_when_the_chances_show(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    session = late_session(storage, 9)
    fill_hall(storage, range(300, 310))
    advisor = Advisor(kismet_table)
    chances = HallChances()
    advice = session.hall_advice(0, session.advise(0, advisor), chances)
    assert advice.target == 301
    assert advice.note == (
        "Chances of a Hall of Fame total (301+) show from when 8 boxes are open (9 are open now)."
    )
    assert advice.heading is None and not advice.pending
    assert chances.work_out(advice, advisor) == advice  # nothing is worked out this early


def test_a_game_without_a_hall_of_fame_says_nothing_of_it(kismet_table: StrategyTable) -> None:
    session = Session.new(Setup((Seat("Ann"),)), rng=ScriptedDice(late_solo_faces(3)))
    play_top_boxes(session, 12)
    session.roll(0)
    advisor = Advisor(kismet_table)
    advice = session.hall_advice(0, session.advise(0, advisor), HallChances())
    assert advice.target is None and advice.about is None and not advice.pending


# --- with the target computer's futures: the chances of playing for the bar, from any sheet ---------


def planned_chances(futures: Futures, table: StrategyTable, session: Session, target: int) -> list[float]:
    """Each advised option's chance from the target player's own plan of this turn, worked out here."""
    game = session.game
    sheet, rules = game.sheet(0), table.rules
    mask, total = position_key(sheet, rules.cap)
    plan = TargetTurns(futures, table, target).turn(
        np.array([mask]), np.array([total]), np.array([raw_points(sheet)])
    )
    roll = rules.space.roll_index[tuple(sorted(game.dice))]
    keeps = [keep for level in rules.space.levels[: rules.dice] for keep in level]
    found = []
    for option in Advisor(table).options(sheet, game.dice, game.rolls_left):
        if option.box is not None:
            found.append(plan.box_chance(option.box.value - 1, roll))
        else:
            found.append(plan.keep_chance(keeps.index(tuple(option.keep or ())), game.rolls_left))
    return found


def test_with_the_futures_each_option_gets_its_chance_playing_this_turn_for_the_bar(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    session = late_session(storage, 3)
    advisor = Advisor(kismet_table)
    bar = round(advisor.start_value(session.game.sheet(0))) + 10
    fill_hall(storage, [bar + 9] * 9 + [bar - 1])
    futures = late_futures(kismet_table, session.game.sheet(0))
    chances = HallChances(Computer(table=kismet_table, futures=futures))
    options = session.advise(0, advisor)
    asked = session.hall_advice(0, options, chances)
    assert asked.target == bar and asked.pending and asked.playing_for and asked.tip is None

    answered = chances.work_out(asked, advisor)
    wanted = planned_chances(futures, kismet_table, session, bar)
    assert answered.chances == pytest.approx(wanted, abs=1e-12)
    assert answered.about == narration.hall_chances_playing_for(bar)
    # The mark goes to the highest chance, and no keep does worse than the hard player's rest of turn.
    assert answered.best_for_hall == wanted.index(max(wanted))
    assert answered.chances is not None and 0 < max(answered.chances) < 1
    hard = Continuations(kismet_table, session.game.sheet(0)).options(
        session.game.dice, session.game.rolls_left, bar, advisor
    )
    # The futures' chances are within their stated bound of the exact ones.
    assert all(
        mine >= theirs.chance - ERROR_BOUND for mine, theirs in zip(answered.chances, hard, strict=True)
    )
    assert any(mine > theirs.chance + 1e-4 for mine, theirs in zip(answered.chances, hard, strict=True))


def test_with_the_futures_early_advice_is_not_told_to_wait_for_eight_open_boxes(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    late = late_session(storage, 3)
    session = late_session(storage, 12)
    fill_hall(storage, range(300, 310))
    computer = Computer(table=kismet_table, futures=late_futures(kismet_table, late.game.sheet(0)))
    chances = HallChances(computer)
    assert chances.limit is None
    advice = session.hall_advice(0, session.advise(0, Advisor(kismet_table)), chances)
    assert advice.note is None and advice.pending and advice.playing_for
    assert advice.heading == "Hall of Fame total (301+)"


def test_without_the_futures_the_chances_are_perfect_plays_and_a_line_says_how_to_get_the_others(
    storage: Storage, kismet_table: StrategyTable
) -> None:
    session = late_session(storage, 3)
    advisor = Advisor(kismet_table)
    bar = round(advisor.start_value(session.game.sheet(0)))
    fill_hall(storage, [bar + 9] * 9 + [bar])
    computer = Computer(table=kismet_table)
    assert computer.stored_futures() is None and not computer.futures_building
    chances = HallChances(computer)
    answered = chances.work_out(session.hall_advice(0, session.advise(0, advisor), chances), advisor)
    assert not answered.playing_for and answered.about == narration.hall_chances(bar + 1)
    assert answered.tip == narration.HALL_FUTURES_MISSING
    assert "target computer player" in answered.tip
    assert answered.chances is not None
    assert answered.best_for_hall == answered.chances.index(max(answered.chances))
    # Early in a game: the line says from when these chances show, the tip how to have them earlier.
    early = late_session(storage, 9)
    advice = early.hall_advice(0, early.advise(0, advisor), chances)
    assert advice.note is not None and "8 boxes" in advice.note
    assert advice.tip == narration.HALL_FUTURES_MISSING
