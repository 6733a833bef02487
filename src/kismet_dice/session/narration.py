"""Every sentence a game tells a person, written once for every interface.

Plain text prints these lines, the terminal writes them in its log, and the web sends each
event with its text, so "what happened" reads the same everywhere. Nothing here decides
anything: the sentences are drawn from the game's events and the session's outcomes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kismet_dice.game import Event, Game, Resigned, Rolled, RollOff, Scored, SecondKismet
from kismet_dice.rules import Box, Dice, Sheet, bonus, describe, score
from kismet_dice.strategy import Decision, Option, Proficiency

COSTLIEST = 3
"""How many of the costliest decisions a review lists."""


@dataclass(frozen=True)
class Told:
    """One event of a game's history and its sentence; ``index`` is its place in the history."""

    index: int
    event: Event
    text: str


def positions(hold: Sequence[int]) -> str:
    """Held positions (0-4) as a person counts dice (1-5).

    >>> positions((1,)), positions((1, 3)), positions((0, 2, 4))
    ('die 2', 'dice 2 and 4', 'dice 1, 3 and 5')
    """
    numbers = [str(position + 1) for position in hold]
    if len(numbers) == 1:
        return f"die {numbers[0]}"
    return f"dice {', '.join(numbers[:-1])} and {numbers[-1]}"


def kept(dice: Dice, hold: Sequence[int]) -> str:
    """The dice kept at a roll, by face and position.

    >>> kept((3, 5, 1, 3, 6), (0, 3))
    'kept 3 3 (dice 1 and 4)'
    """
    faces = " ".join(str(dice[position]) for position in hold)
    return f"kept {faces} ({positions(hold)})"


def roll_off(names: Sequence[str], event: RollOff, *, last: bool) -> str:
    """One round of the roll-off; the last names who begins.

    >>> roll_off(["Ann", "Bob"], RollOff(((0, 5), (1, 5))), last=False)
    'Roll-off: Ann rolls 5, Bob rolls 5; a tie, so they roll again.'
    >>> roll_off(["Ann", "Bob"], RollOff(((0, 6), (1, 2))), last=True)
    'Roll-off: Ann rolls 6, Bob rolls 2. Ann begins.'
    """
    rolls = ", ".join(f"{names[seat]} rolls {face}" for seat, face in event.faces)
    if not last:
        return f"Roll-off: {rolls}; a tie, so they roll again."
    highest = max(face for _, face in event.faces)
    [first] = [seat for seat, face in event.faces if face == highest]
    return f"Roll-off: {rolls}. {names[first]} begins."


def rolled(names: Sequence[str], event: Rolled) -> str:
    """A roll, with the dice kept from the roll before.

    >>> rolled(["Ann"], Rolled(0, (), (5, 2, 3, 3, 6)))
    'Ann rolls 5 red, 2 red, 3 green, 3 green, 6 black.'
    >>> rolled(["Ann"], Rolled(0, (2, 3), (1, 4, 3, 3, 2)))
    'Ann kept 3 3 (dice 3 and 4) and rolls 1 black, 4 green, 3 green, 3 green, 2 red.'
    """
    if not event.hold:
        return f"{names[event.seat]} rolls {describe(event.dice)}."
    return f"{names[event.seat]} {kept(event.dice, event.hold)} and rolls {describe(event.dice)}."


def entry(box: Box, points: int) -> str:
    """An entry in words: a zero is entered, not scored.

    >>> entry(Box.KISMET, 0), entry(Box.FULL_HOUSE, 32)
    ('0 in Kismet', '32 in Full House')
    """
    return f"{points} in {box.label}"


def scored(names: Sequence[str], event: Scored, total: int) -> str:
    """An entry that ends a turn, with the player's game total after it.

    >>> scored(["Ann"], Scored(0, Box.FULL_HOUSE, 32, (3, 3, 3, 1, 1)), 120)
    'Ann enters 32 in Full House; total 120.'
    """
    return f"{names[event.seat]} enters {entry(event.box, event.points)}; total {total}."


def second_kismet(names: Sequence[str], event: SecondKismet) -> str:
    """A second Kismet: the zeros it costs the others, and the lead it takes.

    >>> from kismet_dice.game import Penalty
    >>> told = second_kismet(["Ann", "Bob"], SecondKismet(0, (Penalty(1, Box.ONES),)))
    >>> told.split(". ")  # doctest: +NORMALIZE_WHITESPACE
    ['Second Kismet! Ann rolled five of a kind with a Kismet already scored',
     'Bob loses a turn: 0 in Ones',
     'The rest of the round is skipped; Ann leads from now on.']
    """
    name = names[event.seat]
    sentences = [f"Second Kismet! {name} rolled five of a kind with a Kismet already scored."]
    if len(names) > 1:
        sentences += [f"{names[p.seat]} loses a turn: 0 in {p.box.label}." for p in event.penalties]
        sentences.append(f"The rest of the round is skipped; {name} leads from now on.")
    return " ".join(sentences)


def boxes(labels: Sequence[str]) -> str:
    """Box labels in a list of words.

    >>> boxes(["Ones"]), boxes(["Ones", "Kismet"]), boxes(["Ones", "Twos", "Kismet"])
    ('Ones', 'Ones and Kismet', 'Ones, Twos and Kismet')
    """
    if len(labels) <= 1:
        return "".join(labels)
    return f"{', '.join(labels[:-1])} and {labels[-1]}"


def resigned(names: Sequence[str], event: Resigned) -> str:
    """A player leaving the game: the zeros entered for them, and whether the game goes on.

    >>> from kismet_dice.rules import Box
    >>> resigned(["Ann", "Bob"], Resigned(1, (Box.FOURS, Box.KISMET)))
    'Bob resigns: 0 in Fours and Kismet. The game goes on without Bob.'
    >>> resigned(["Ann", "Bob"], Resigned(1, (Box.KISMET,), ended=True))
    'Bob resigns: 0 in Kismet. No person is left to play, so the game ends here.'
    """
    name = names[event.seat]
    zeros = f"{name} resigns: 0 in {boxes([box.label for box in event.zeros])}."
    if event.ended:
        return f"{zeros} No person is left to play, so the game ends here."
    return f"{zeros} The game goes on without {name}." if len(names) > 1 else zeros


TIME_OUT_RULE = (
    "When a person's time for a turn runs out, the table plays it for them: it rolls if they have "
    "not rolled yet, then enters the dice in the open box that scores most (the highest on the "
    "sheet if several do)."
)
"""What the table does when a turn's time runs out, as the set-up and the table say it."""


def timed_out(name: str, rolled_for: bool, box: Box, points: int) -> str:
    """What the table did for a person whose time ran out.

    >>> timed_out("Ann", False, Box.STRAIGHT, 30)
    "Ann's time ran out: the table entered 30 in Straight, the open box that scores most."
    >>> timed_out("Ann", True, Box.ONES, 0)[:48]
    "Ann's time ran out: the table rolled for Ann and"
    """
    rolled = f"rolled for {name} and " if rolled_for else ""
    entered = entry(box, points)
    return f"{name}'s time ran out: the table {rolled}entered {entered}, the open box that scores most."


def turn_time(seconds: int | None) -> str:
    """A table's time per turn, in words.

    >>> turn_time(None), turn_time(90)
    ('no time limit per turn', '90 seconds per turn')
    """
    return "no time limit per turn" if seconds is None else f"{seconds} seconds per turn"


RESIGN_QUESTION = (
    "Resign your seat? Every open box of your sheet gets a 0 and you take no more turns; "
    "the game goes on for the others (it ends if no person is left to play). This cannot be undone."
)
"""What a person is asked before resigning, in every interface."""


def story(game: Game, start: int = 0) -> tuple[Told, ...]:
    """The sentences of the events of ``game``'s history from ``start`` on.

    A one-player game tells no roll-off. Each entry's total is the one after it, so the sheets
    are followed from the ones before ``start`` on; only the events from ``start`` on are put
    in words (the server tells a few new events of a long game after every action).
    """
    names = game.names
    history = game.history
    sheets = _sheets_before(game, start)
    # The roll-off rounds open the history: the last is the one before its first other event.
    last_roll_off = (
        next((i for i, event in enumerate(history) if not isinstance(event, RollOff)), len(history)) - 1
    )
    told: list[Told] = []
    for index, event in enumerate(history[start:], start):
        text = ""
        if isinstance(event, RollOff):
            if len(names) > 1:
                text = roll_off(names, event, last=index == last_roll_off)
        elif isinstance(event, Rolled):
            text = rolled(names, event)
        elif isinstance(event, Scored):
            sheets[event.seat] = sheets[event.seat].with_entry(event.box, event.points)
            text = scored(names, event, sheets[event.seat].total)
        elif isinstance(event, Resigned):
            for box in event.zeros:
                sheets[event.seat] = sheets[event.seat].with_entry(box, 0)
            text = resigned(names, event)
        else:
            for penalty in event.penalties:
                sheets[penalty.seat] = sheets[penalty.seat].with_entry(penalty.box, 0)
            text = second_kismet(names, event)
        if text:
            told.append(Told(index, event, text))
    return tuple(told)


def _sheets_before(game: Game, start: int) -> list[Sheet]:
    """Every player's sheet as it was before event ``start``: the sheets now, less the entries of
    the events from ``start`` on (a few, where the server tells what an action added), so that
    telling the end of a long game does not follow it from its first entry."""
    sheets = [game.sheet(seat) for seat in range(len(game.names))]
    for event in game.history[start:]:
        if isinstance(event, Scored):
            sheets[event.seat] = sheets[event.seat].without_entry(event.box)
        elif isinstance(event, SecondKismet):
            for penalty in event.penalties:
                sheets[penalty.seat] = sheets[penalty.seat].without_entry(penalty.box)
        elif isinstance(event, Resigned):
            for box in event.zeros:
                sheets[event.seat] = sheets[event.seat].without_entry(box)
    return sheets


def result(game: Game) -> str:
    """Who won, in words, once the game is over.

    >>> from kismet_dice.game import ScriptedDice
    >>> game = Game(["Ann"], rng=ScriptedDice([1] + [1, 2, 3, 4, 6] * 15))
    >>> for box in Box:
    ...     _ = game.roll(); _ = game.score(box)
    >>> result(game)
    'The game is over: Ann scores 32.'
    """
    if not game.is_over:
        return "The game is not over."
    names = [game.names[seat] for seat in game.winners]
    best = game.total(game.winners[0])
    if len(game.names) == 1:
        return f"The game is over: {names[0]} scores {best}."
    if len(names) == 1:
        return f"The game is over: {names[0]} wins with {best}."
    return f"The game is over: {' and '.join(names)} share the win with {best}."


def turn_heading(game: Game, who: str) -> str:
    """The line that opens a turn."""
    seat = game.current_player
    assert seat is not None
    return f"Round {game.round}: {who}'s turn ({game.total(seat)} points so far)."


def bonus_needed(sheet: Sheet) -> str | None:
    """What the Basic section still needs for its next bonus, in words; ``None`` once it is full.

    >>> from kismet_dice.rules import Box
    >>> bonus_needed(Sheet().with_entry(Box.TWOS, 6).with_entry(Box.THREES, 6))
    '51 more for a 35 bonus'
    >>> bonus_needed(Sheet().with_entry(Box.SIXES, 30).with_entry(Box.FIVES, 25).with_entry(Box.FOURS, 16))
    '7 more for a 75 bonus (55 reached)'
    >>> bonus_needed(Sheet().with_entry(Box.SIXES, 30).with_entry(Box.FIVES, 25).with_entry(Box.FOURS, 24))
    'the top bonus, 75, is reached'
    """
    if sheet.basic_complete:
        return None
    needed = sheet.points_to_next_bonus
    if needed is None:
        return f"the top bonus, {bonus(sheet.basic_total)}, is reached"
    reached = bonus(sheet.basic_total)
    tier = bonus(sheet.basic_total + needed)
    return f"{needed} more for a {tier} bonus" + (f" ({reached} reached)" if reached else "")


# --- advice and the review ------------------------------------------------------------------


def option(choice: Option, dice: Dice) -> str:
    """An option of the advisor for ``dice`` in words: what to keep and roll, or what to enter.

    >>> option(Option(200.0, keep=(3, 3)), (3, 3, 1, 2, 6))
    'keep 3 3, roll 3'
    >>> option(Option(180.5, box=Box.KISMET), (3, 3, 1, 2, 6))
    'enter 0 in Kismet'
    """
    if choice.box is not None:
        return f"enter {entry(choice.box, score(choice.box, dice))}"
    if not choice.keep:
        return "roll all five"
    rolled_again = 5 - len(choice.keep)
    return f"keep {' '.join(map(str, choice.keep))}, roll {rolled_again}"


ADVICE_TITLE = "Advice: every option by expected final total"
ADVICE_COLUMNS = ("Option", "Expected", "Gives away")
"""The advice table's columns beside each option's rank ("best", then 2, 3 ...): what to do, the
expected final total after it, and how much less that is than the best option's."""
BEST = "best"
"""The rank of the first option of the advice."""
WIN_COLUMN = "Win chance"
"""The advice's column of each option's chance of winning (where the futures are on the machine)."""


def advice_keys(hidden: int = 0) -> str:
    """How the advice's options are played, and how many weaker ones are not shown.

    >>> advice_keys()
    'Enter plays the highlighted option, escape closes.'
    >>> advice_keys(3)[-29:]
    '(3 weaker options not shown).'
    """
    more = f" ({hidden} weaker options not shown)" if hidden else ""
    return f"Enter plays the highlighted option, escape closes{more}."


def gives_away(best: float, expected: float, rank: int) -> str:
    """An option's "gives away" cell: the expected points it gives away against the best option.

    >>> gives_away(250.0, 250.0, 0), gives_away(250.0, 247.125, 1)
    ('—', '2.88')
    """
    return "—" if rank == 0 else f"{best - expected:.2f}"


def zero_question(label: str) -> str:
    """Asked before a zero is entered at once (from the advice, or with "enter at once").

    >>> zero_question("Kismet")
    'Kismet would score 0. Enter the zero?'
    """
    return f"{label} would score 0. Enter the zero?"


def rolls_left(count: int) -> str:
    """The rolls left in a turn, in words.

    >>> rolls_left(1), rolls_left(2)
    ('1 roll left', '2 rolls left')
    """
    return f"{count} roll{'s' if count != 1 else ''} left"


def decision(names: Sequence[str], choice: Decision) -> str:
    """One costly decision of a review."""
    dice = " ".join(map(str, choice.dice))
    return (
        f"{names[choice.seat]}, turn {choice.turn}, {dice} with {rolls_left(choice.rolls_left)}: "
        f"{option(choice.chosen, choice.dice)} instead of {option(choice.best, choice.dice)}, "
        f"giving away {choice.loss:.1f}"
    )


def review(judged: Proficiency) -> tuple[str, ...]:
    """How well everyone played: the points each gave away, then the costliest decisions."""
    lines = ["How well everyone played (expected points given away against perfect play):"]
    for seat, name in enumerate(judged.names):
        count = len(judged.decisions_of(seat))
        lines.append(f"  {name}: {judged.total_loss(seat):.1f} points in {count} decisions")
    costly = judged.costliest(COSTLIEST)
    if costly:
        lines.append("The costliest decisions:")
    lines += [f"  {decision(judged.names, choice)}" for choice in costly]
    return tuple(lines)


# --- the Hall of Fame -------------------------------------------------------------------------

ASSISTED = "The computer gave advice in this game, so it does not enter the Hall of Fame."
ASK_ADVICE = "Advice marks this game as assisted: it can no longer enter the Hall of Fame. Ask anyway?"


def hall_question(name: str, total: int) -> str:
    return f"{name}, {total} enters the Hall of Fame! Your name for the list:"


def hall_entered(name: str, rank: int, total: int) -> str:
    return f"{name} enters the Hall of Fame at number {rank} with {total}."


def hall_missed(player: str, total: int) -> str:
    """A name was given, but other games filled the list meanwhile."""
    return f"{player}'s {total} no longer makes the Hall of Fame: other games filled the list meanwhile."


def hall_pushed_out(player: str, total: int, by: str | None) -> str:
    """A person who qualified at the end of the game but no longer does, and who took the place.

    >>> hall_pushed_out("Bob", 201, "Ann")
    "Bob's 201 no longer makes the Hall of Fame: Ann's entry just now took the last place."
    """
    if by is None:
        return hall_missed(player, total)
    return f"{player}'s {total} no longer makes the Hall of Fame: {by}'s entry just now took the last place."


def standing(name: str, total: int, share: float) -> str:
    """How a total compares with perfect play (``share``: perfect games it beats). A share that
    would round to 0% or 100% says so without rounding it away: beating a few perfect games in a
    million is not beating none, and 100% would claim that none ends higher.

    >>> standing("Ann", 287, 0.3812)
    "Ann's 287 beats 38% of perfect games."
    >>> standing("Bob", 41, 2e-9), standing("Bob", 20, 0.0)
    ("Bob's 41 beats fewer than 1% of perfect games.", "Bob's 20 beats no perfect game.")
    >>> standing("Cy", 590, 0.9987), standing("Cy", 900, 1.0)
    ("Cy's 590 beats more than 99% of perfect games.", "Cy's 900 beats every perfect game.")
    """
    if share <= 0.0:
        beaten = "no perfect game"
    elif share >= 1.0:
        beaten = "every perfect game"
    elif share < 0.005:
        beaten = "fewer than 1% of perfect games"
    elif share >= 0.995:
        beaten = "more than 99% of perfect games"
    else:
        beaten = f"{share:.0%} of perfect games"
    return f"{name}'s {total} beats {beaten}."


def compiling(where: str = "this machine") -> str:
    """Said when the strategy's loops begin to compile (the first run on a machine, or after an
    upgrade); the web says where: on the server.

    >>> compiling()
    'The first run on this machine compiles the strategy: some seconds more, once.'
    >>> compiling("this server")[:31]
    'The first run on this server co'
    """
    return f"The first run on {where} compiles the strategy: some seconds more, once."


COMPILING = compiling()

WAITING = (
    "Another kismet on this machine is working this out already: this one waits for it, "
    "following its progress."
)
"""Said when a job finds another process already doing the same work (two games started at once,
say), so the progress shown is that one's."""


def playing_reference(where: str = "this machine") -> str:
    """Said while the reference games of the statistics' charts are played (seconds, the first time).

    >>> playing_reference("this server")
    'Playing the games the charts compare with, once on this server…'
    """
    return f"Playing the games the charts compare with, once on {where}…"


PLAYING_REFERENCE = playing_reference()

COMPARING = "Comparing each total with perfect play…"
"""Said while the distribution of perfect play is worked out, the first time on a machine."""


# --- the Hall of Fame in advice ---------------------------------------------------------------

WORKING_OUT_CHANCES = "Working out the chances of a Hall of Fame total…"
HALL_ANY_TOTAL = (
    "The Hall of Fame has fewer than ten entries, so any finished total would make it "
    "(an assisted game does not enter it)."
)


def hall_column(target: int) -> str:
    """The heading of the column of each option's chance of reaching the Hall of Fame's bar.

    >>> hall_column(312)
    'Hall of Fame total (312+)'
    """
    return f"Hall of Fame total ({target}+)"


def hall_chances(target: int) -> str:
    """What the chances beside the options are: honest that this game itself no longer enters.

    >>> hall_chances(312)[:62]
    'Chance of a Hall of Fame total, 312 or more, playing perfectly'
    """
    return (
        f"Chance of a Hall of Fame total, {target} or more, playing perfectly from here "
        "(an assisted game does not enter it)."
    )


def hall_chances_playing_for(target: int) -> str:
    """What the chances beside the options are when they come from playing for the bar: the target
    computer's plan for this turn (:mod:`kismet_dice.strategy.target`), perfect play after it.

    >>> hall_chances_playing_for(312)[:70]
    'Chance of a Hall of Fame total, 312 or more, playing this turn for it '
    """
    return (
        f"Chance of a Hall of Fame total, {target} or more, playing this turn for it and perfectly after "
        "(playing for it every turn does at least as well; an assisted game does not enter it)."
    )


BEST_FOR_HALL = "best for the Hall of Fame"
"""The mark of the option with the best chance of a Hall of Fame total, beside the best expected one."""

HALL_FUTURES_MISSING = (
    "Chances from any sheet, playing for the Hall of Fame, come once a target computer player has played "
    "on this machine: it works out the chances of every position the first time (under a minute, once)."
)
HALL_FUTURES_BUILDING = (
    "Chances from any sheet, playing for the Hall of Fame, come once the target computer player has "
    "worked out the chances of every position (under way: under a minute, once)."
)


def hall_chances_later(target: int, open_boxes: int, limit: int) -> str:
    """Why advice this early shows no chances: working them out would take too long.

    >>> hall_chances_later(312, 11, 8)
    'Chances of a Hall of Fame total (312+) show from when 8 boxes are open (11 are open now).'
    """
    return (
        f"Chances of a Hall of Fame total ({target}+) show from when {limit} boxes are open "
        f"({open_boxes} are open now)."
    )
