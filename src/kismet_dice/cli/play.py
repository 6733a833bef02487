"""``kismet play --plain``: a whole game in plain line-by-line text.

Everything is words and numbers on separate lines (dice read as "5 red"), so the game
works in a screen reader, over a pipe and in a script. Bad typing gets a one-line hint
and the same question again; end of input ends the game cleanly.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from kismet_dice.cli.answers import BOX_HINT, WrongAnswer, read_box, read_keep
from kismet_dice.cli.errors import UserError
from kismet_dice.cli.saving import open_storage, warn
from kismet_dice.cli.strategy import saying_compiles
from kismet_dice.game import DiceSource, Game, HouseRules, Score, Scored, check_name
from kismet_dice.rules import Box, IllegalAction, Sheet, describe
from kismet_dice.session import (
    COMPUTER_PACE,
    HallChances,
    Preferences,
    Seat,
    Session,
    Setup,
    Told,
    Unsaved,
    local_session,
    narration,
    resume,
    seat_levels,
)
from kismet_dice.session.win_chances import MODEL as WIN_MODEL
from kismet_dice.session.win_chances import WinChances
from kismet_dice.session.win_chances import words as win_words
from kismet_dice.storage import SavedGameError, Storage, StorageError
from kismet_dice.strategy import Computer, ComputerPlayer, ComputerUnavailable, Goal, Level, proficiency

KEEP_HINT = (
    "Type the positions of the dice to keep (1-5, like '1 3' or '13'), "
    "Enter to roll all five, 's' to score, 'sheet' for the sheets or 'hint' for advice."
)
ADVICE_SHOWN = 8
SAVED_ON_INTERRUPT = "The game is saved: run kismet play to resume it."
NOTHING_TO_RESUME = "Stopped before the first roll: nothing to resume."


class EndOfInput(Exception):
    """The person closed the input: the game ends where it is."""


def register(subparsers: Any) -> None:
    play = subparsers.add_parser(
        "play",
        help="play a game (--plain: line by line, for screen readers and pipes)",
        description="Play a game of Kismet. With --plain, line by line in plain text.",
    )
    play.add_argument("--plain", action="store_true", help="plain line-by-line text")
    play.add_argument("--seed", type=int, help="make the dice repeatable")
    play.add_argument(
        "--pace",
        type=float,
        default=None,
        metavar="SECONDS",
        help=f"pause between a computer player's actions (default: the settings', else {COMPUTER_PACE})",
    )
    play.add_argument(
        "--zero-kismet-counts",
        action="store_true",
        help="house rule: a zero in the Kismet box counts as filled for the second Kismet",
    )
    play.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help=f"players in seating order, NAME={'|'.join(level.value for level in Level)} for a computer "
        "(asked if omitted)",
    )
    play.set_defaults(run=run_play)


def run_play(options: argparse.Namespace) -> int:
    rng = random.Random(options.seed) if options.seed is not None else None
    if options.pace is not None and not options.pace >= 0:
        raise UserError("--pace is a number of seconds, 0 or more")
    house_rules = HouseRules(zero_kismet_counts=options.zero_kismet_counts)
    if not options.plain:
        # Names on the command line start a new game at once, as in plain text; a bad one is told
        # in one line before the screen opens.
        try:
            seats = Setup(parse_seats(options.names)).checked().seats if options.names else ()
        except IllegalAction as error:
            raise UserError(str(error)) from None
        asked = house_rules if options.zero_kismet_counts else None
        return run_terminal_game(rng, options.pace, seats, asked)
    storage = open_storage()
    preferences = Preferences.load(storage.settings)
    pace = preferences.pace if options.pace is None else options.pace
    table = PlainTable(
        sys.stdin, sys.stdout, computer=Computer(), default_name=preferences.default_name, pace=pace
    )
    session: Session | None = None
    try:
        # Names on the command line mean a new game; without them, unfinished games are offered.
        session = None if options.names else table.choose_saved_game(storage, rng)
        if session is None:
            seats = parse_seats(options.names) if options.names else table.ask_seats()
            session = table.new_session(storage, Setup(seats, house_rules), rng)
        table.play(session)
        table.enter_hall_of_fame(session)
    except EndOfInput:
        table.say("\nInput ended; the game stops here.")
        if _saved(session):
            table.say("It is saved: run kismet play again to resume it.")
    except KeyboardInterrupt:
        # Every action is saved as it happens: say so in one line, with no traceback.
        table.say()
        table.say(SAVED_ON_INTERRUPT if _saved(session) else NOTHING_TO_RESUME)
        return 130
    except (StorageError, IllegalAction) as error:
        raise UserError(str(error)) from None
    finally:
        storage.close()
    return 0


def _saved(session: Session | None) -> bool:
    return session is not None and session.kept


def run_terminal_game(
    rng: DiceSource | None,
    pace: float | None,
    seats: tuple[Seat, ...] = (),
    house_rules: HouseRules | None = None,
) -> int:
    """The full-screen game (``pace`` ``None``: the settings'; ``seats``: a new game of them at once);
    the storage is opened first so a problem with it is one line."""
    from kismet_dice.tui import KismetApp

    storage = open_storage()
    try:
        KismetApp(
            storage, computer=Computer(), rng=rng, pace=pace, seats=seats, house_rules=house_rules
        ).run()
    finally:
        storage.close()
    return 0


def parse_seats(words: Sequence[str]) -> tuple[Seat, ...]:
    """Seats from names, ``NAME=LEVEL`` for a computer player; an unknown level is refused.

    >>> parse_seats(["Ann", "Hal=hard"])
    (Seat(name='Ann', level=None), Seat(name='Hal', level=<Level.HARD: 'hard'>))
    """
    seats = []
    for word in words:
        name, _, level = word.partition("=")
        seats.append(Seat.from_words(name, level))
    return tuple(seats)


class PlainTable:
    """A game of Kismet read from one text stream and written to another.

    ``computer`` plays computer seats and gives advice; without it, only people play.
    ``default_name`` is the one player's name when Enter is pressed for the players; ``pace`` is
    the pause in seconds between a computer player's actions. ``hall_chances`` works out (and
    remembers) each advised option's chance of a Hall of Fame total.
    """

    def __init__(
        self,
        source: TextIO,
        sink: TextIO,
        computer: Computer | None = None,
        *,
        default_name: str = "Player 1",
        pace: float = 0.0,
        hall_chances: HallChances | None = None,
    ) -> None:
        self._source = source
        self._sink = sink
        self._computer = computer
        self._default_name = default_name
        self._pace = pace
        self._warned = False
        self._hall_chances = hall_chances if hall_chances is not None else HallChances(computer)
        self._win_chances = WinChances(computer)
        self._model_told = False

    # --- talking ----------------------------------------------------------------------

    def say(self, line: str = "") -> None:
        print(line, file=self._sink, flush=True)

    def ask(self, question: str) -> str:
        self._sink.write(question)
        self._sink.flush()
        line = self._source.readline()
        if not line:
            raise EndOfInput
        return line.strip()

    def ask_seats(self) -> tuple[Seat, ...]:
        while True:
            answer = self.ask(
                "Players' names in seating order, separated by commas; NAME=easy, =medium, =hard or =target "
                f"for a computer player (Enter for one player, {self._default_name}): "
            )
            words = [part.strip() for part in answer.split(",")] if answer else [self._default_name]
            try:
                return Setup(parse_seats(words)).checked().seats
            except IllegalAction as error:
                self.say(f"{str(error)[0].upper()}{str(error)[1:]}. Try again.")

    def new_session(self, storage: Storage, setup: Setup, rng: DiceSource | None) -> Session:
        """A new game of ``setup``, saved at its first action; a bad set-up is a one-line error."""
        try:
            setup = setup.checked()
            if any(seat.is_computer for seat in setup.seats) and self._computer is None:
                raise IllegalAction("no computer players are available")
            self.prepare_computer([seat.level for seat in setup.seats])
            computer = self._computer_player if self._computer is not None else None
            return local_session(storage, setup, computer=computer, rng=rng)
        except IllegalAction as error:
            raise UserError(str(error)) from None

    def _computer_player(self, level: Level, goal: Goal) -> ComputerPlayer:
        assert self._computer is not None
        return self._computer.player(level, goal)

    def prepare_computer(self, levels: Sequence[Level | None]) -> None:
        """Load what the players of ``levels`` need before they play, saying so when it takes a while."""
        computer = self._computer
        if computer is None or computer.ready_for(levels):
            return
        if not computer.ready:
            self.say(
                "The computer is getting ready; the first time on this machine it works out "
                "the best move of every position, which takes a few seconds."
            )
        progress = None
        if any(level is not None and level.needs_futures for level in levels) and not computer.futures_stored:
            self.say(
                "A target player plays for the Hall of Fame: the first time on this machine the "
                "computer works out the chances from every position, which takes under a minute."
            )
            progress = self._progress_in_tenths()
        try:
            with saying_compiles(self.say):
                computer.prepare(levels, progress)
        except ComputerUnavailable as error:
            raise UserError(str(error)) from None

    def _progress_in_tenths(self) -> Callable[[int, int], None]:
        """A progress callback that says each tenth of the work done, once."""
        said = [0]

        def progress(done: int, total: int) -> None:
            tenth = done * 10 // max(total, 1)
            if tenth > said[0]:
                said[0] = tenth
                self.say(f"{tenth * 10}% done")

        return progress

    # --- the game ---------------------------------------------------------------------

    def play(self, session: Session) -> None:
        game = session.game
        players = ", ".join(seat.describe() for seat in session.seats)
        self.say(f"Kismet for {len(game.names)}: {players}. Type '?' at any question for help.")
        if not any(isinstance(event, Scored) for event in game.history):
            self.tell(session.story())  # the roll-off, for a game that has not begun
        while not session.game.is_over:
            if session.is_computer_turn:
                self.play_computer_turn(session)
            else:
                self.play_turn(session)
        self.show_end(session)

    def tell(self, told: Sequence[Told]) -> None:
        """What happened, as every interface tells it."""
        for each in told:
            self.say(each.text)

    def _after_action(self, session: Session) -> None:
        # The session has saved the game; say once if saving stopped working.
        problem = session.keeper.problem
        if problem is not None and not self._warned:
            self._warned = True
            warn(problem)

    def _turn_heading(self, session: Session) -> None:
        current = session.current_seat
        assert current is not None
        self.say()
        self.say(narration.turn_heading(session.game, current.describe()))
        # Where the futures of every position are on this machine, everyone's chance of winning.
        chances = self._win_chances.of(session.game)
        if chances is not None:
            if not self._model_told:
                self._model_told = True
                self.say(WIN_MODEL)
            self.say(win_words(session.game.names, chances))

    def play_computer_turn(self, session: Session) -> None:
        """The computer plays a whole turn, each roll and the entry told as it happens."""
        self._turn_heading(session)
        while True:
            if self._pace:
                time.sleep(self._pace)  # slow enough for a person to follow
            told = session.computer_step()
            self._after_action(session)
            self.tell(told)
            if any(isinstance(each.event, Scored) for each in told):
                return

    def play_turn(self, session: Session) -> None:
        self._turn_heading(session)
        seat = session.game.current_player
        assert seat is not None
        if not session.game.dice:  # a resumed game may stop in the middle of a turn, dice on the table
            self.tell(session.roll(seat))
            self._after_action(session)
        while True:
            self.show_dice(session.game)
            if session.game.rolls_left and self.keep_or_score(session, seat):
                continue
            break
        self.choose_box(session, seat)

    def show_dice(self, game: Game) -> None:
        done = 3 - game.rolls_left
        dice = ", ".join(f"[{position}] {describe((face,))}" for position, face in enumerate(game.dice, 1))
        self.say(f"Roll {done} of 3: {dice}.")
        self.show_options(game)

    def show_options(self, game: Game) -> None:
        self.say("Open boxes and what these dice would score there:")
        for box, points in game.options().items():
            self.say(f"  {box.value:>2} {box.label:<22} {points:>3}")

    def keep_or_score(self, session: Session, seat: int) -> bool:
        """Ask what to keep and roll again (True), or go on to scoring (False)."""
        while True:
            left = session.game.rolls_left
            answer = self.ask(f"Keep which dice? ({narration.rolls_left(left)}) ")
            lowered = answer.lower()
            if lowered in ("s", "score"):
                return False
            if lowered in ("?", "help"):
                self.say(KEEP_HINT)
                continue
            if lowered in ("sheet", "sheets"):
                self.show_sheets(session.game)
                continue
            if lowered in ("h", "hint", "advice"):
                self.advise(session, seat)
                continue
            try:
                hold = read_keep(answer)
                told = session.roll(seat, hold)
            except WrongAnswer as error:
                self.say(str(error))
                continue
            except IllegalAction as error:
                self.say(f"{str(error)[:1].upper()}{str(error)[1:]}.")
                continue
            self._after_action(session)
            self.tell(told)
            return True

    def choose_box(self, session: Session, seat: int) -> None:
        options = session.game.options()
        while True:
            answer = self.ask("Score in which box? ")
            if answer.lower() in ("?", "help"):
                self.say(BOX_HINT)
                continue
            if answer.lower() in ("sheet", "sheets"):
                self.show_sheets(session.game)
                continue
            if answer.lower() in ("h", "hint", "advice"):
                self.advise(session, seat)
                continue
            try:
                box = read_box(answer)
            except WrongAnswer as error:
                self.say(str(error))
                continue
            if box not in options:
                self.say(f"{box.label} is already filled. {BOX_HINT}")
                continue
            if options[box] == 0 and not self.confirm(f"{box.label} would score 0. Enter the zero? (y/n) "):
                continue
            told = session.act(seat, Score(box))
            self._after_action(session)
            self.tell(told)
            return

    def advise(self, session: Session, seat: int) -> None:
        """The advisor's options, best first; the first advice of a game asks first."""
        if self._computer is None:
            self.say("Advice is not available.")
            return
        if not session.assisted and not self.confirm(f"{narration.ASK_ADVICE} (y/n) "):
            return
        self.prepare_computer([Level.HARD])
        advisor = self._computer.advisor()
        options = session.advise(seat, advisor)
        self._after_action(session)
        hall = session.hall_advice(seat, options, self._hall_chances)
        if hall.pending:
            self.say(narration.WORKING_OUT_CHANCES)
            hall = self._hall_chances.work_out(hall, advisor)
        dice = session.game.dice
        if hall.heading is None or hall.chances is None:
            self.say("Advice, best first, with the expected final total:")
            for rank, option in enumerate(options[:ADVICE_SHOWN], 1):
                self.say(f"  {rank}. {narration.option(option, dice)}: {option.expected:.2f}")
        else:
            self.say(
                f"Advice, best first: the expected final total, the chance of a {hall.heading}, the option:"
            )
            best = hall.best_for_hall
            for rank in hall.shown(ADVICE_SHOWN):
                option, found = options[rank], hall.chances[rank]
                words = narration.option(option, dice)
                mark = f" ({narration.BEST_FOR_HALL})" if rank == best else ""
                self.say(f"  {rank + 1}. {option.expected:7.2f} {found:7.1%}  {words}{mark}")
        for line in (hall.about, hall.tip):
            if line is not None:
                self.say(line)
        # Where the futures are on this machine: the chance of winning after each option shown.
        shown = (
            list(range(min(ADVICE_SHOWN, len(options))))
            if hall.chances is None
            else list(hall.shown(ADVICE_SHOWN))
        )
        wins = self._win_chances.advice(session.game, [options[rank] for rank in shown])
        if wins is not None:
            self.say(f"{narration.WIN_COLUMN}, option by option:")
            for rank, chance in zip(shown, wins, strict=True):
                self.say(f"  {rank + 1}. {chance:7.1%}  {narration.option(options[rank], dice)}")

    def confirm(self, question: str) -> bool:
        while True:
            answer = self.ask(question).lower()
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no", ""):
                return False
            self.say("Answer y or n.")

    # --- saved games and the Hall of Fame --------------------------------------------

    def choose_saved_game(self, storage: Storage, rng: DiceSource | None) -> Session | None:
        """List the unfinished games and let the person pick one; ``None`` for a new game."""
        listing = storage.games.unfinished()
        for broken in listing.unreadable:
            warn(f"skipping {broken.reason}")
        if not listing.games:
            return None
        games = list(listing.games)
        while games:
            self.say("Unfinished games:")
            for number, saved in enumerate(games, 1):
                self.say(f"  {number}. {saved.describe()}; saved {saved.saved.astimezone():%Y-%m-%d %H:%M}")
            count = len(games)
            answer = self.ask(
                f"Resume which game? (1-{count}; d and a number discards one; Enter for a new game) "
            )
            lowered = answer.lower()
            if lowered in ("", "n", "new"):
                return None
            words = lowered.replace("discard", "d").split()
            if words and words[0] == "d":
                if len(words) != 2 or not words[1].isdigit() or not 1 <= int(words[1]) <= count:
                    self.say(f"Type d and a game's number from 1 to {count}, like 'd 1'.")
                    continue
                doomed = games[int(words[1]) - 1]
                if self.confirm(f"Discard game {words[1]} ({doomed.describe()}) for good? (y/n) "):
                    storage.games.discard(doomed.id)
                    games.remove(doomed)
                    self.say(f"Discarded game {words[1]}.")
                continue
            if answer.isdigit() and 1 <= int(answer) <= count:
                chosen = games[int(answer) - 1]
                try:
                    self.prepare_computer(seat_levels(chosen))
                    session = resume(storage, chosen.id, computer=self._computer_player, rng=rng)
                except SavedGameError as error:
                    self.say(f"{error}. Pick another, or press Enter for a new game.")
                    continue
                self.say(f"Resuming: {chosen.describe()}.")
                return session
            self.say(
                f"Type a number from 1 to {count}, d and a number to discard one, or Enter for a new game."
            )
        return None

    def enter_hall_of_fame(self, session: Session) -> None:
        """Ask each person whose total qualifies for a name, best total first, and enter it.

        After each entry the others are checked again: whoever no longer qualifies is told so.
        """
        if session.assisted:
            self.say(narration.ASSISTED)
            return
        game = session.game
        try:
            while prompts := session.hall_prompts():
                seat = prompts[0]
                name = self.ask_hall_name(game.names[seat], game.total(seat))
                for line in session.answer_hall(seat, name).told:
                    self.say(line)
        except Unsaved as error:
            raise UserError(str(error)) from None

    def ask_hall_name(self, player: str, total: int) -> str:
        """A checked Hall of Fame name; Enter, or the end of input, takes the player's name."""
        question = f"{narration.hall_question(player, total)} (Enter for {player}) "
        while True:
            try:
                answer = self.ask(question)
            except EndOfInput:
                self.say()
                return player
            if not answer:
                return player
            try:
                return check_name(answer)
            except IllegalAction as error:
                self.say(f"{error}. Try again.")

    # --- sheets and the end ----------------------------------------------------------

    def show_sheets(self, game: Game) -> None:
        for line in sheet_table(game.names, [game.sheet(seat) for seat in range(len(game.names))]):
            self.say(line)

    def show_end(self, session: Session) -> None:
        game = session.game
        self.say()
        self.say("Final sheets:")
        self.show_sheets(game)
        self.say(session.result())
        standings = session.standings()
        computer = self._computer
        if session.standings_to_work_out and computer is not None and computer.stored:
            # The first time on a machine, the distribution of perfect play takes a few seconds.
            self.say(narration.COMPARING)
            try:
                with saying_compiles(self.say):
                    standings = session.work_out_standings(computer, self._progress_in_tenths())
            except ComputerUnavailable as error:
                self.say(str(error))
        for line in standings:
            self.say(line)
        if computer is None:
            return
        # Judging every decision needs the solved table; solving it is left to an explicit ask.
        if computer.stored:
            for line in narration.review(proficiency(game, computer.advisor())):
                self.say(line)
        else:
            self.say("To see how well everyone played, run 'kismet solve' once (a few seconds).")


def parse_positions(text: str) -> tuple[int, ...] | None:
    """Engine positions (0-4) from a person's 1-5, as '1 3', '1,3' or '13'; None if unreadable.

    >>> parse_positions("1 3"), parse_positions("25"), parse_positions(""), parse_positions("7")
    ((0, 2), (1, 4), (), None)
    """
    digits = text.replace(",", " ").replace(" ", "")
    if not digits.isdigit() and digits:
        return None
    if any(not "1" <= char <= "5" for char in digits):
        return None
    return tuple(int(char) - 1 for char in digits)


def _cell(entry: int | None) -> str:
    return "." if entry is None else str(entry)


def sheet_table(names: tuple[str, ...], sheets: list[Sheet]) -> list[str]:
    """The sheets side by side as lines of plain text, with subtotals and totals."""
    width = max(6, *(len(name) for name in names))
    lines = [f"{'':<25}" + "".join(f"{name:>{width + 2}}" for name in names)]

    def row(label: str, cells: list[str]) -> None:
        lines.append(f"{label:<25}" + "".join(f"{cell:>{width + 2}}" for cell in cells))

    for box in Box:
        row(f"{box.value:>2} {box.label}", [_cell(sheet[box]) for sheet in sheets])
        if box is Box.SIXES:
            row("   Basic total", [str(sheet.basic_total) for sheet in sheets])
            row("   Bonus", [str(sheet.bonus) for sheet in sheets])
    row("   Kismet-section total", [str(sheet.kismet_total) for sheet in sheets])
    row("   Game total", [str(sheet.total) for sheet in sheets])
    return lines
