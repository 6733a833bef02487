"""``kismet play --plain``: a whole game in plain line-by-line text.

Everything is words and numbers on separate lines (dice read as "5 red"), so the game
works in a screen reader, over a pipe and in a script. Bad typing gets a one-line hint
and the same question again; end of input ends the game cleanly.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from kismet_dice.cli.errors import UserError
from kismet_dice.cli.saving import open_storage, warn
from kismet_dice.game import DiceSource, Game, HouseRules, Rolled, RollOff, Scored, SecondKismet, check_name
from kismet_dice.rules import Box, IllegalAction, Sheet, describe
from kismet_dice.session import (
    COMPUTER_PACE,
    GameKeeper,
    Seat,
    Session,
    Setup,
    hall_candidates,
    resume,
    seat_levels,
)
from kismet_dice.storage import SavedGameError, Storage, StorageError
from kismet_dice.strategy import Computer, ComputerPlayer, proficiency

KEEP_HINT = (
    "Type the positions of the dice to keep (1-5, like '1 3' or '13'), "
    "Enter to roll all five, 's' to score, 'sheet' for the sheets or 'hint' for advice."
)
ADVICE_SHOWN = 8
BOX_HINT = "Type a box's number (1-15) or its name, like '9' or 'straight' ('hint' for advice)."


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
        default=COMPUTER_PACE,
        metavar="SECONDS",
        help=f"pause between a computer player's actions in the terminal game (default {COMPUTER_PACE})",
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
        help="players in seating order, NAME=easy|medium|hard for a computer player (asked if omitted)",
    )
    play.set_defaults(run=run_play)


def run_play(options: argparse.Namespace) -> int:
    rng = random.Random(options.seed) if options.seed is not None else None
    if not options.plain:
        return run_terminal_game(rng, options.pace)
    house_rules = HouseRules(zero_kismet_counts=options.zero_kismet_counts)
    storage = open_storage()
    table = PlainTable(sys.stdin, sys.stdout, computer=Computer())
    keeper: GameKeeper | None = None
    try:
        # Names on the command line mean a new game; without them, unfinished games are offered.
        resumed = None if options.names else table.choose_saved_game(storage, rng)
        if resumed is not None:
            session, keeper = resumed
            assert keeper.saved is not None
            table.say(f"Resuming: {keeper.saved.describe()}.")
        else:
            seats = parse_seats(options.names) if options.names else table.ask_seats()
            keeper = GameKeeper(storage)
            session = table.new_session(Setup(seats, house_rules), rng, keeper)
        table.play(session, keeper)
        table.enter_hall_of_fame(storage, session)
    except EndOfInput:
        table.say("\nInput ended; the game stops here.")
        if keeper is not None and keeper.saved is not None and keeper.problem is None:
            table.say("It is saved: run kismet play again to resume it.")
    except StorageError as error:
        raise UserError(str(error)) from None
    finally:
        storage.close()
    return 0


def run_terminal_game(rng: DiceSource | None, pace: float) -> int:
    """The full-screen game; the storage is opened first so a problem with it is one line."""
    from kismet_dice.tui import KismetApp

    if pace < 0:
        raise UserError("--pace is a number of seconds, 0 or more")
    storage = open_storage()
    try:
        KismetApp(storage, computer=Computer(), rng=rng, pace=pace).run()
    finally:
        storage.close()
    return 0


def parse_seats(words: Sequence[str]) -> tuple[Seat, ...]:
    """Seats from names, ``NAME=LEVEL`` for a computer player.

    >>> parse_seats(["Ann", "Hal=hard"])
    (Seat(name='Ann', level=None), Seat(name='Hal', level='hard'))
    """
    seats = []
    for word in words:
        name, _, level = word.partition("=")
        seats.append(Seat(name, level.strip().lower() or None))
    return tuple(seats)


class PlainTable:
    """A game of Kismet read from one text stream and written to another.

    ``computer`` plays computer seats and gives advice; without it, only people play.
    """

    def __init__(self, source: TextIO, sink: TextIO, computer: Computer | None = None) -> None:
        self._source = source
        self._sink = sink
        self._computer = computer
        self._keeper: GameKeeper | None = None
        self._warned = False

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
                "Players' names in seating order, separated by commas; NAME=easy, =medium or =hard "
                "for a computer player (Enter for one player): "
            )
            words = [part.strip() for part in answer.split(",")] if answer else ["Player"]
            try:
                return Setup(parse_seats(words)).checked().seats
            except IllegalAction as error:
                self.say(f"{str(error)[0].upper()}{str(error)[1:]}. Try again.")

    def new_session(self, setup: Setup, rng: DiceSource | None, keeper: GameKeeper) -> Session:
        """A new game of ``setup``; a bad set-up is a one-line error."""
        try:
            setup = setup.checked()
            if any(seat.level is not None for seat in setup.seats) and self._computer is None:
                raise IllegalAction("no computer players are available")
            self.prepare_computer(any(seat.level == "hard" for seat in setup.seats))
            return Session.new(setup, computer=self._computer_player, rng=rng, after_action=keeper)
        except IllegalAction as error:
            raise UserError(str(error)) from None

    def _computer_player(self, level: str) -> ComputerPlayer:
        assert self._computer is not None
        return self._computer.player(level)

    def prepare_computer(self, needed: bool) -> None:
        """Load the computer's table before it is needed, saying so when it takes a while."""
        if needed and self._computer is not None and not self._computer.ready:
            self.say(
                "The computer is getting ready; the first time on this machine it works out "
                "the best move of every position, which takes a few seconds."
            )
            self._computer.advisor()

    # --- the game ---------------------------------------------------------------------

    def play(self, session: Session, keeper: GameKeeper | None = None) -> None:
        self._keeper = keeper
        game = session.game
        players = ", ".join(seat.describe() for seat in session.seats)
        self.say(f"Kismet for {len(game.names)}: {players}. Type '?' at any question for help.")
        self.announce_roll_off(game)
        while not game.is_over:
            if session.is_computer_turn:
                self.play_computer_turn(session)
            else:
                self.play_turn(session)
        self.show_end(session)

    def _after_action(self) -> None:
        # The session has saved the game; say once if saving stopped working.
        if self._keeper is not None and self._keeper.problem is not None and not self._warned:
            self._warned = True
            warn(self._keeper.problem)

    def announce_roll_off(self, game: Game) -> None:
        if len(game.names) == 1:
            return
        for event in game.history:
            if isinstance(event, RollOff):
                rolls = ", ".join(f"{game.names[seat]} rolls {face}" for seat, face in event.faces)
                self.say(f"Roll-off for the first turn: {rolls}.")
        self.say(f"{game.names[game.first_player]} begins.")

    def _turn_heading(self, session: Session) -> None:
        game = session.game
        seat = game.current_player
        assert seat is not None
        self.say()
        who = session.seats[seat].describe()
        self.say(f"Round {game.round}: {who}'s turn ({game.total(seat)} points so far).")

    def play_computer_turn(self, session: Session) -> None:
        """The computer plays a whole turn, each roll and the entry told as it happens."""
        self._turn_heading(session)
        game = session.game
        while True:
            before = len(game.history)
            session.computer_step()
            self._after_action()
            new = game.history[before:]
            for event in new:
                if isinstance(event, Rolled):
                    name = game.names[event.seat]
                    if event.hold:
                        kept = " ".join(str(event.dice[position]) for position in event.hold)
                        self.say(f"{name} keeps {kept} and rolls: {describe(event.dice)}.")
                    else:
                        self.say(f"{name} rolls: {describe(event.dice)}.")
                elif isinstance(event, Scored):
                    total = game.total(event.seat)
                    self.say(
                        f"{game.names[event.seat]} enters {event.points} in {event.box.label}; total {total}."
                    )
                elif isinstance(event, SecondKismet):
                    self.announce_second_kismet(game, event)
            if any(isinstance(event, Scored) for event in new):
                return

    def play_turn(self, session: Session) -> None:
        game = session.game
        self._turn_heading(session)
        if not game.dice:  # a resumed game may stop in the middle of a turn, dice on the table
            session.roll()
            self._after_action()
        while True:
            self.show_dice(game)
            if game.rolls_left and self.keep_or_score(session):
                continue
            break
        self.choose_box(session)

    def show_dice(self, game: Game) -> None:
        done = 3 - game.rolls_left
        dice = ", ".join(f"[{position}] {describe((face,))}" for position, face in enumerate(game.dice, 1))
        self.say(f"Roll {done} of 3: {dice}.")
        self.show_options(game)

    def show_options(self, game: Game) -> None:
        self.say("Open boxes and what these dice would score there:")
        for box, points in game.options().items():
            self.say(f"  {box.value:>2} {box.label:<22} {points:>3}")

    def keep_or_score(self, session: Session) -> bool:
        """Ask what to keep and roll again (True), or go on to scoring (False)."""
        game = session.game
        while True:
            answer = self.ask(
                f"Keep which dice? ({game.rolls_left} roll{'s' if game.rolls_left > 1 else ''} left) "
            )
            lowered = answer.lower()
            if lowered in ("s", "score"):
                return False
            if lowered in ("?", "help"):
                self.say(KEEP_HINT)
                continue
            if lowered in ("sheet", "sheets"):
                self.show_sheets(game)
                continue
            if lowered in ("h", "hint", "advice"):
                self.advise(session)
                continue
            hold = parse_positions(answer)
            if hold is None:
                self.say(KEEP_HINT)
                continue
            try:
                session.set_hold(hold)
                session.roll()
            except IllegalAction as error:
                self.say(f"{error}. {KEEP_HINT}")
                continue
            self._after_action()
            return True

    def choose_box(self, session: Session) -> None:
        game = session.game
        seat = game.current_player
        assert seat is not None
        options = game.options()
        while True:
            answer = self.ask("Score in which box? ")
            if answer.lower() in ("?", "help"):
                self.say(BOX_HINT)
                continue
            if answer.lower() in ("sheet", "sheets"):
                self.show_sheets(game)
                continue
            if answer.lower() in ("h", "hint", "advice"):
                self.advise(session)
                continue
            try:
                box = Box.parse(answer)
            except IllegalAction:
                self.say(f"No box is called {answer!r}. {BOX_HINT}")
                continue
            if box not in options:
                self.say(f"{box.label} is already filled. {BOX_HINT}")
                continue
            if options[box] == 0 and not self.confirm(f"{box.label} would score 0. Enter the zero? (y/n) "):
                continue
            before = len(game.history)
            points = session.score(box)
            self._after_action()
            self.say(f"{game.names[seat]} enters {points} in {box.label}; total {game.total(seat)}.")
            for event in game.history[before:]:
                if isinstance(event, SecondKismet):
                    self.announce_second_kismet(game, event)
            return

    def advise(self, session: Session) -> None:
        """The advisor's options, best first; the first advice of a game asks first."""
        if self._computer is None:
            self.say("Advice is not available.")
            return
        if not session.assisted:
            question = (
                "Advice marks this game as assisted: it can no longer enter the Hall of Fame. "
                "Ask anyway? (y/n) "
            )
            if not self.confirm(question):
                return
            session.mark_assisted()
            self._after_action()
        self.prepare_computer(True)
        options = self._computer.advisor().game_options(session.game)
        self.say("Advice, best first, with the expected final total:")
        for rank, option in enumerate(options[:ADVICE_SHOWN], 1):
            self.say(f"  {rank}. {option.describe()}: {option.expected:.2f}")

    def confirm(self, question: str) -> bool:
        while True:
            answer = self.ask(question).lower()
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no", ""):
                return False
            self.say("Answer y or n.")

    def announce_second_kismet(self, game: Game, event: SecondKismet) -> None:
        name = game.names[event.seat]
        self.say(f"SECOND KISMET! {name} rolled five of a kind with a Kismet already scored.")
        if len(game.names) == 1:
            return
        for penalty in event.penalties:
            self.say(f"  {game.names[penalty.seat]} loses a turn: 0 in {penalty.box.label}.")
        self.say(f"The rest of the round is skipped; {name} leads from now on.")

    # --- saved games and the Hall of Fame --------------------------------------------

    def choose_saved_game(
        self, storage: Storage, rng: DiceSource | None
    ) -> tuple[Session, GameKeeper] | None:
        """List the unfinished games and let the person pick one; ``None`` for a new game."""
        listing = storage.games.unfinished()
        for broken in listing.unreadable:
            warn(f"skipping {broken.reason}")
        if not listing.games:
            return None
        self.say("Unfinished games:")
        for number, saved in enumerate(listing.games, 1):
            self.say(f"  {number}. {saved.describe()}; saved {saved.saved.astimezone():%Y-%m-%d %H:%M}")
        count = len(listing.games)
        while True:
            answer = self.ask(f"Resume which game? (1-{count}, or Enter for a new game) ")
            if answer.lower() in ("", "n", "new"):
                return None
            if answer.isdigit() and 1 <= int(answer) <= count:
                chosen = listing.games[int(answer) - 1]
                try:
                    self.prepare_computer("hard" in seat_levels(chosen))
                    return resume(storage, chosen.id, computer=self._computer_player, rng=rng)
                except SavedGameError as error:
                    self.say(f"{error}. Pick another, or press Enter for a new game.")
                    continue
            self.say(f"Type a number from 1 to {count}, or press Enter for a new game.")

    def enter_hall_of_fame(self, storage: Storage, session: Session) -> None:
        """Ask each person whose total qualifies for a name, best total first, and enter it."""
        if session.assisted:
            self.say("The computer gave advice in this game, so it does not enter the Hall of Fame.")
            return
        game = session.game
        try:
            for seat in hall_candidates(session, storage):
                total = game.total(seat)
                name = self.ask_hall_name(game.names[seat], total)
                entry = storage.hall.submit(
                    name, total, players=len(game.names), computer=False, assisted=False
                )
                if entry is None:
                    self.say(f"Meanwhile other games filled the Hall of Fame; {total} no longer makes it.")
                else:
                    self.say(f"{entry.name} enters the Hall of Fame at number {entry.rank} with {total}.")
        except StorageError as error:
            raise UserError(str(error)) from None

    def ask_hall_name(self, player: str, total: int) -> str:
        """A checked Hall of Fame name; Enter, or the end of input, takes the player's name."""
        question = f"{player}, {total} enters the Hall of Fame! Name for the list (Enter for {player}): "
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
        self.say("The game is over. Final sheets:")
        self.show_sheets(game)
        self.say(session.result())
        if self._computer is None:
            return
        # Judging every decision needs the solved table; solving it is left to an explicit ask.
        if self._computer.stored:
            for line in proficiency(game, self._computer.advisor()).summary():
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
