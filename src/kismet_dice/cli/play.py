"""``kismet play --plain``: a whole game in plain line-by-line text.

Everything is words and numbers on separate lines (dice read as "5 red"), so the game
works in a screen reader, over a pipe and in a script. Bad typing gets a one-line hint
and the same question again; end of input ends the game cleanly.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from kismet_dice.cli.errors import UserError
from kismet_dice.cli.saving import GameSaver, open_storage, warn
from kismet_dice.game import DiceSource, Game, HouseRules, RollOff, SecondKismet, check_name
from kismet_dice.rules import Box, IllegalAction, Sheet, describe
from kismet_dice.storage import SavedGame, SavedGameError, Storage, StorageError

KEEP_HINT = (
    "Type the positions of the dice to keep (1-5, like '1 3' or '13'), "
    "Enter to roll all five, or 's' to score."
)
BOX_HINT = "Type a box's number (1-15) or its name, like '9' or 'straight'."


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
        default=0.6,
        metavar="SECONDS",
        help="pause between a computer player's actions in the terminal game (default 0.6)",
    )
    play.add_argument(
        "--zero-kismet-counts",
        action="store_true",
        help="house rule: a zero in the Kismet box counts as filled for the second Kismet",
    )
    play.add_argument("names", nargs="*", metavar="NAME", help="players in seating order (asked if omitted)")
    play.set_defaults(run=run_play)


def run_play(options: argparse.Namespace) -> int:
    rng = random.Random(options.seed) if options.seed is not None else None
    if not options.plain:
        return run_terminal_game(rng, options.pace)
    house_rules = HouseRules(zero_kismet_counts=options.zero_kismet_counts)
    storage = open_storage()
    saver = GameSaver(storage)
    table = PlainTable(sys.stdin, sys.stdout, after_action=saver)
    try:
        # Names on the command line mean a new game; without them, unfinished games are offered.
        resumed = None if options.names else table.choose_saved_game(storage, rng)
        if resumed is not None:
            saver.saved, game = resumed
            table.say(f"Resuming: {saver.saved.describe()}.")
        else:
            names = options.names or table.ask_names()
            try:
                game = Game(names, rng=rng, house_rules=house_rules)
            except IllegalAction as error:
                raise UserError(str(error)) from None
        table.play(game)
        saved = saver.saved
        computer = saved.computer if saved is not None else (False,) * len(game.names)
        table.enter_hall_of_fame(storage, game, computer, assisted=saved is not None and saved.assisted)
    except EndOfInput:
        table.say("\nInput ended; the game stops here.")
        if saver.saved is not None and not saver.failed:
            table.say("It is saved: run kismet play again to resume it.")
    except StorageError as error:
        raise UserError(str(error)) from None
    finally:
        storage.close()
    return 0


def run_terminal_game(rng: DiceSource | None, pace: float) -> int:
    """The full-screen game; the storage is opened first so a problem with it is one line."""
    from kismet_dice.strategy import Computer
    from kismet_dice.tui import KismetApp

    if pace < 0:
        raise UserError("--pace is a number of seconds, 0 or more")
    storage = open_storage()
    try:
        KismetApp(storage, computer=Computer(), rng=rng, pace=pace).run()
    finally:
        storage.close()
    return 0


class PlainTable:
    """A game of Kismet read from one text stream and written to another."""

    def __init__(self, source: TextIO, sink: TextIO, after_action: Callable[[Game], None] | None = None):
        self._source = source
        self._sink = sink
        # Called after every roll and every entry, e.g. to save the game.
        self._after_action = after_action or (lambda game: None)

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

    def ask_names(self) -> list[str]:
        while True:
            answer = self.ask("Players' names in seating order, separated by commas (Enter for one player): ")
            names = [part.strip() for part in answer.split(",")] if answer else ["Player"]
            try:
                checked = [check_name(name) for name in names]
                if len(set(checked)) != len(checked):
                    raise IllegalAction("two players cannot share a name")
            except IllegalAction as error:
                self.say(f"{error}. Try again.")
                continue
            return checked

    # --- the game ---------------------------------------------------------------------

    def play(self, game: Game) -> None:
        self.say(f"Kismet for {len(game.names)}: {', '.join(game.names)}. Type '?' at any question for help.")
        self.announce_roll_off(game)
        while not game.is_over:
            self.play_turn(game)
        self.show_end(game)

    def announce_roll_off(self, game: Game) -> None:
        if len(game.names) == 1:
            return
        for event in game.history:
            if isinstance(event, RollOff):
                rolls = ", ".join(f"{game.names[seat]} rolls {face}" for seat, face in event.faces)
                self.say(f"Roll-off for the first turn: {rolls}.")
        self.say(f"{game.names[game.first_player]} begins.")

    def play_turn(self, game: Game) -> None:
        seat = game.current_player
        assert seat is not None
        name = game.names[seat]
        self.say()
        self.say(f"Round {game.round}: {name}'s turn ({game.total(seat)} points so far).")
        if not game.dice:  # a resumed game may stop in the middle of a turn, dice on the table
            game.roll()
            self._after_action(game)
        while True:
            self.show_dice(game)
            if game.rolls_left and self.keep_or_score(game):
                continue
            break
        self.choose_box(game)

    def show_dice(self, game: Game) -> None:
        done = 3 - game.rolls_left
        dice = ", ".join(
            f"[{position}] {word}" for position, word in enumerate(describe(game.dice).split(", "), 1)
        )
        self.say(f"Roll {done} of 3: {dice}.")
        self.show_options(game)

    def show_options(self, game: Game) -> None:
        seat = game.current_player
        assert seat is not None
        options = game.options()
        self.say("Open boxes and what these dice would score there:")
        for box, points in options.items():
            self.say(f"  {box.value:>2} {box.label:<22} {points:>3}")

    def keep_or_score(self, game: Game) -> bool:
        """Ask what to keep and roll again (True), or go on to scoring (False)."""
        while True:
            answer = self.ask(
                f"Keep which dice? ({game.rolls_left} roll{'s' if game.rolls_left > 1 else ''} left) "
            )
            lowered = answer.lower()
            if lowered in ("s", "score"):
                return False
            if lowered in ("?", "h", "help"):
                self.say(KEEP_HINT)
                continue
            if lowered in ("sheet", "sheets"):
                self.show_sheets(game)
                continue
            hold = parse_positions(answer)
            if hold is None:
                self.say(KEEP_HINT)
                continue
            try:
                game.roll(hold)
            except IllegalAction as error:
                self.say(f"{error}. {KEEP_HINT}")
                continue
            self._after_action(game)
            return True

    def choose_box(self, game: Game) -> None:
        seat = game.current_player
        assert seat is not None
        options = game.options()
        while True:
            answer = self.ask("Score in which box? ")
            if answer.lower() in ("?", "h", "help"):
                self.say(BOX_HINT)
                continue
            if answer.lower() in ("sheet", "sheets"):
                self.show_sheets(game)
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
            points = game.score(box)
            self._after_action(game)
            self.say(f"{game.names[seat]} enters {points} in {box.label}; total {game.total(seat)}.")
            for event in game.history[before:]:
                if isinstance(event, SecondKismet):
                    self.announce_second_kismet(game, event)
            return

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

    def choose_saved_game(self, storage: Storage, rng: DiceSource | None) -> tuple[SavedGame, Game] | None:
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
                try:
                    return storage.games.load(listing.games[int(answer) - 1].id, rng)
                except SavedGameError as error:
                    self.say(f"{error}. Pick another, or press Enter for a new game.")
                    continue
            self.say(f"Type a number from 1 to {count}, or press Enter for a new game.")

    def enter_hall_of_fame(
        self, storage: Storage, game: Game, computer: Sequence[bool], *, assisted: bool
    ) -> None:
        """Ask each human player whose total qualifies for a name, best total first, and enter it."""
        if assisted:
            self.say("The computer gave advice in this game, so it does not enter the Hall of Fame.")
            return
        players = len(game.names)
        # Best first (seating order on a tie), so a lesser total never pushes out a better one.
        seats = sorted((seat for seat in range(players) if not computer[seat]), key=lambda s: -game.total(s))
        try:
            for seat in seats:
                total = game.total(seat)
                if not storage.hall.qualifies(total):
                    continue
                name = self.ask_hall_name(game.names[seat], total)
                entry = storage.hall.submit(name, total, players=players, computer=False, assisted=False)
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

    def show_end(self, game: Game) -> None:
        self.say()
        self.say("The game is over. Final sheets:")
        self.show_sheets(game)
        winners = [game.names[seat] for seat in game.winners]
        best = game.total(game.winners[0])
        if len(game.names) == 1:
            self.say(f"{winners[0]} scores {best}.")
        elif len(winners) == 1:
            self.say(f"{winners[0]} wins with {best}.")
        else:
            self.say(f"{' and '.join(winners)} share the win with {best}.")


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
