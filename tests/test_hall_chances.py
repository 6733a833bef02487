"""Advice beside each option's expected total: its chance of a Hall of Fame total (one more than the
list's tenth entry), exact from late positions, with one line instead where there are no chances."""

from __future__ import annotations

import pytest

from kismet_dice.game import ScriptedDice
from kismet_dice.session import HallChances, Seat, Session, Setup, local_session, narration
from kismet_dice.storage import Storage, qualifies
from kismet_dice.strategy import Advisor, StrategyTable
from kismet_dice.strategy.chances import Continuations
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
