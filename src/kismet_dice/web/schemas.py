"""Every shape the web API takes or gives, in one module: requests, views and live messages.

The limits come from where the game defines them (names, seats, levels, boxes), so the
OpenAPI schema states the real ones.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    Strict,
    StrictBool,
    WithJsonSchema,
)

from kismet_dice.game import MAX_NAME_LENGTH, check_name
from kismet_dice.rules import Box
from kismet_dice.session import MAX_SEATS, MAX_TURN_SECONDS, MIN_TURN_SECONDS, narration
from kismet_dice.strategy import Level


def _box(value: object) -> Box:
    if isinstance(value, Box):
        return value
    if isinstance(value, str) and value in Box.__members__:
        return Box[value]
    raise ValueError(f"no box is called {value!r}; the boxes are {', '.join(Box.__members__)}")


BoxName = Annotated[
    Box,
    PlainValidator(_box),
    PlainSerializer(lambda box: box.name, return_type=str),
    WithJsonSchema({"type": "string", "enum": list(Box.__members__)}),
]
"""A box as the API names it (``FULL_HOUSE``): the 15 names, top of the sheet first."""

ComputerState = Literal["not_loaded", "getting_ready", "ready", "unavailable"]
ComputerTask = Literal["strategy", "futures"]

Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME_LENGTH), AfterValidator(check_name)]
"""A player's name: 1 to 24 characters, no control characters; surrounding spaces are removed."""
Position = Annotated[int, Strict(), Field(ge=0, le=4)]
"""A die's position: a JSON whole number 0 to 4 (never ``"0"`` or ``true``, which lax parsing takes)."""
Token = Annotated[str, Field(max_length=200)]


class View(BaseModel):
    model_config = ConfigDict(frozen=True)


class ErrorBody(View):
    error: str = Field(description="what was wrong, in words")


# --- requests ---------------------------------------------------------------------------------


class SeatRequest(BaseModel):
    name: Name = Field(description=f"1 to {MAX_NAME_LENGTH} characters, surrounding spaces removed")
    computer: Level | None = Field(default=None, description="a computer player's level; null for a person")


class NewGameRequest(BaseModel):
    players: list[SeatRequest] = Field(min_length=1, max_length=MAX_SEATS, description="in seating order")
    zero_kismet_counts: StrictBool = Field(
        default=False, description="house rule: a zero in the Kismet box counts as filled"
    )
    turn_seconds: Annotated[int, Strict(), Field(ge=MIN_TURN_SECONDS, le=MAX_TURN_SECONDS)] | None = Field(
        default=None,
        description=f"the time for each person's turn, {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS} seconds; "
        f"null (the default): no limit. {narration.TIME_OUT_RULE}",
    )


class RollRequest(BaseModel):
    hold: list[Position] = Field(default=[], max_length=5, description="positions (0-4) of the dice to keep")


class ScoreRequest(BaseModel):
    box: BoxName = Field(description="the box to fill")


class HallRequest(BaseModel):
    name: Name | None = Field(description="the name to enter under; null declines the prompt")


class RollMessage(BaseModel):
    type: Literal["roll"]
    token: Token
    hold: list[Position] = Field(default=[], max_length=5)


class ScoreMessage(BaseModel):
    type: Literal["score"]
    token: Token
    box: BoxName


class SyncMessage(BaseModel):
    """A page that missed an update asks for the whole game again."""

    type: Literal["sync"]


class HelloMessage(BaseModel):
    """A page that holds a seat's token says which seat it is, so every page can show who is here."""

    type: Literal["hello"]
    token: Token


PageMessage = Annotated[RollMessage | ScoreMessage | SyncMessage | HelloMessage, Field(discriminator="type")]


# --- views ------------------------------------------------------------------------------------


class DieView(View):
    face: int = Field(ge=1, le=6)
    colour: Literal["black", "red", "green"]
    letter: Literal["B", "R", "G"] = Field(description="the colour as a letter, for colour-blind players")


class BoxView(View):
    box: BoxName
    label: str
    points: int | None = Field(description="the entry; null while the box is open")
    option: int | None = Field(
        description="what the dice on the table would score here, for the player whose turn it is"
    )


class PlayerView(View):
    seat: int
    name: str
    computer: Level | None = Field(description="a computer player's level; null for a person")
    described: str = Field(
        description="the player as a list of players reads it: the name, and a computer's level "
        'unless the name says it already ("Hal (computer, hard)", "Computer (hard)")'
    )
    sheet: list[BoxView]
    basic_total: int
    bonus: int
    points_to_next_bonus: int | None
    kismet_total: int
    total: int
    win_chance: float | None = Field(
        default=None,
        description="in GET /api/games/{id}: the player's chance of winning from here (ties shared), "
        "where this server holds the futures of every position; null otherwise (live pages get a "
        "`chances` message after each change instead)",
    )


class PenaltyView(View):
    seat: int
    box: BoxName


class EventView(View):
    index: int = Field(description="the event's place in the game's history, from 0")
    kind: Literal["roll_off", "rolled", "scored", "second_kismet", "resigned"]
    text: str = Field(description="the event in words, as every interface tells it")
    seat: int | None = None
    faces: list[list[int]] = Field(default=[], description="roll-off: [seat, face] pairs")
    hold: list[int] = Field(default=[], description="rolled: the positions held")
    dice: list[int] = []
    box: BoxName | None = None
    points: int | None = None
    penalties: list[PenaltyView] = []
    zeros: list[BoxName] = Field(default=[], description="resigned: the open boxes that got a 0")


class TurnView(View):
    """Everything of a game but its sheets and history: small enough to send with every change."""

    round: int
    leader: int
    current_player: int | None
    dice: list[DieView]
    rolls_left: int
    may_roll: bool = Field(description="whether the player whose turn it is may roll now")
    may_hold: bool = Field(description="whether dice may be held for that roll")
    over: bool
    winners: list[int]
    result: str | None = Field(description="once the game is over, who won, in words")
    standings: list[str] = Field(
        default=[],
        description="once the game is over, how each person's total compares with perfect play "
        "(when the server holds the exact distribution of perfect play)",
    )
    hall_of_fame: list[int] = Field(
        description="once the game is over: the seats whose total qualifies for the Hall of Fame "
        "and who have not yet answered its prompt"
    )
    assisted: bool = Field(
        description="someone asked for advice, which keeps the game out of the Hall of Fame"
    )
    computer: ComputerState = Field(
        description="the server's computer (hard players, advice, proficiency): not_loaded until first "
        "needed, getting_ready while its strategy table loads (the first time on a server it is "
        "worked out, which takes a few seconds), ready, or unavailable if that failed"
    )
    computer_problem: str | None = Field(default=None, description="why the computer is unavailable")
    computer_task: ComputerTask | None = Field(
        default=None,
        description="while getting_ready, what it works out: its strategy (a few seconds the first time), "
        "or for a target computer the chances of every position (under a minute the first time; advice "
        "and the other computers play meanwhile)",
    )
    computer_progress: float | None = Field(
        default=None, description="while getting_ready, the share of that work done (0 to 1), where known"
    )
    computer_compiling: bool = Field(
        default=False,
        description="while getting_ready, whether it first compiles its strategy: the first run on the "
        "server's machine, which takes some seconds more, once",
    )
    turn_seconds: int | None = Field(
        default=None, description="the table's time for each person's turn; null: none"
    )
    turn_deadline: float | None = Field(
        default=None,
        description="while a person has the turn at a table with a time per turn: when it runs out, in "
        "seconds since 1970 (UTC) by the server's clock",
    )


class GameView(TurnView):
    id: str
    version: int = Field(description="grows with every change kept; a page keeps the highest it has seen")
    zero_kismet_counts: bool
    players: list[PlayerView]
    events: list[EventView]
    connected: list[int] = Field(
        default_factory=list, description="the seats whose player has a page open (said hello) now"
    )


class OptionView(View):
    expected: float = Field(description="the expected final game total after this choice, with perfect play")
    words: str = Field(description="the option in words, e.g. 'keep 3 3, roll 3' or 'enter 32 in Full House'")
    keep: list[int] | None = Field(description="the dice values to keep before rolling again; null for a box")
    hold: list[int] | None = Field(description="the positions (0-4) of those dice, as the roll takes them")
    box: BoxName | None = Field(description="the box to fill now; null for a roll")
    chance: float | None = Field(
        default=None,
        description="in advice: the chance of a Hall of Fame total (hall.target or more) after this "
        "choice, with perfect play; null where it was not worked out",
    )
    win_chance: float | None = Field(
        default=None,
        description="in advice: the chance of winning after this choice (every player playing on "
        "perfectly; see the chances message's model), where the server holds the futures of every "
        "position; null otherwise",
    )


class HallChancesView(View):
    target: int | None = Field(
        description="the lowest total that would make the Hall of Fame now: one more than its tenth "
        "entry (a total equal to it would not enter); null while the list has fewer than ten entries"
    )
    heading: str | None = Field(
        description="the heading of the options' chances, e.g. 'Hall of Fame total (312+)'; "
        "null without chances"
    )
    line: str | None = Field(
        description="the line to show under the advice: what the chances are, why there are none "
        "(fewer than ten entries, or too early in the game), or that they are being worked out"
    )
    pending: bool = Field(
        description="the chances are still to be worked out: POST .../advice/chances answers with them"
    )
    playing_for: bool = Field(
        default=False,
        description="the chances are those of playing this turn for the bar (the target computer's plan, "
        "from any sheet where its futures are stored on the server), not of playing for the expected total",
    )
    best: int | None = Field(
        default=None,
        description="the place in options (0 is the first) of the option with the best chance; null "
        "without chances",
    )
    best_mark: str | None = Field(
        default=None, description="the words that mark that option, e.g. 'best for the Hall of Fame'"
    )
    tip: str | None = Field(
        default=None,
        description="a second line: how chances from any sheet, playing for the bar, come (where the "
        "server has not worked out what they need yet)",
    )


class Advice(View):
    options: list[OptionView] = Field(description="every option, best first")
    hall: HallChancesView = Field(
        description="each option's chance of a Hall of Fame total (an assisted game does not enter it)"
    )
    game: GameView


class DecisionView(View):
    round: int = Field(description="the player's turn number, 1-15")
    dice: list[int]
    rolls_left: int
    chosen: OptionView
    best: OptionView
    loss: float = Field(description="expected points the choice gave away against the best one")
    text: str = Field(description="the decision in words, as every interface tells it")


class PlayerProficiency(View):
    seat: int
    name: str
    computer: Level | None
    described: str = Field(
        description="the player as a list of players reads it: the name, and a computer's level "
        'unless the name says it already ("Hal (computer, hard)", "Computer (hard)")'
    )
    decisions: int = Field(description="how many choices the player made")
    expected_loss: float = Field(description="expected points lost against perfect play, over the game")
    costliest: list[DecisionView] = Field(description="the choices that cost most, costliest first")


class ProficiencyView(View):
    players: list[PlayerProficiency]
    review: list[str] = Field(description="the whole review in lines, as every interface tells it")
    standings: list[str] = Field(
        default_factory=list,
        description="how each person's total compares with perfect play, one a line (the game's "
        "standings, worked out for this answer where this server had not stored perfect play's "
        "distribution yet; empty where the computer could not)",
    )


class Invitation(View):
    seat: int
    name: str
    link: str = Field(description="the seat's link; whoever holds it plays the seat")


class NewGame(View):
    id: str
    watch_link: str = Field(description="the game's plain link: it shows the game, it cannot act")
    invitations: list[Invitation] = Field(description="one per human seat; computer seats have none")
    game: GameView


class SeatView(View):
    seat: int
    name: str


class HallEntryView(View):
    rank: int
    name: str
    total: int
    date: datetime
    players: int


class HallAnswer(View):
    entry: HallEntryView | None = Field(
        description="the new entry; null if declined or no longer good enough"
    )
    told: list[str] = Field(description="what the answer did, in words (for this page and every other)")
    game: GameView


class Rules(View):
    text: str = Field(description="the rules of Kismet, in Markdown")


class WordsView(View):
    """The sentences a page shows that every interface says the same (written once, in the session)."""

    resign_question: str = Field(description="asked before a person resigns")
    zero_question: str = Field(description="asked before a zero is entered; {box} is the box's label")
    advice_title: str = Field(description="the advice's heading")
    advice_columns: list[str] = Field(
        description="the advice table's column headings: the rank's (empty), the option's, the expected "
        "final total's and the points it gives away against the best option"
    )
    advice_best: str = Field(description="the rank shown for the best option (the others show 2, 3 ...)")
    advice_keys: str = Field(description="how an option of the advice is played")
    win_column: str = Field(description="the advice's column of each option's chance of winning")
    compiling: str = Field(
        description="said while the computer, getting ready, first compiles its strategy (computer_compiling)"
    )
    playing_reference: str = Field(description="said while a chart waits for the games it compares with")


class ChartReferenceView(View):
    """How far the games the charts compare with are, while a chart waits for them."""

    playing: bool = Field(
        description="whether they are being played now (the first time on a server, seconds); while "
        "they are, a chart's answer comes once they are done"
    )
    progress: float | None = Field(default=None, description="while playing, the share played (0 to 1)")
    available: bool = Field(
        default=False,
        description="whether the strategy table is on this server, so the charts can compare with "
        "those games (without it they show a person's games alone, and no chart of them alone is drawn)",
    )


class RateView(View):
    count: int = Field(description="requests allowed at once, and again every `seconds`")
    seconds: float


class LimitsView(View):
    max_seats: int
    max_name_length: int
    levels: list[Level]
    boxes: list[BoxName]
    computer_pace: float = Field(description="seconds between a computer player's actions")
    min_turn_seconds: int = Field(description="the shortest time a table may give each person's turn")
    max_turn_seconds: int = Field(description="the longest")
    turn_seconds_choices: list[int] = Field(description="the times per turn a set-up offers first")
    time_out_rule: str = Field(description="what the table does when a person's time runs out")
    level_words: dict[Level, str] = Field(description="how each computer level plays, in words")
    computer_names: dict[Level, str] = Field(
        description="the name a computer seat of each level takes by default"
    )
    max_body_bytes: int
    max_message_characters: int
    # A public server's protections (web/guard.py); null where there is no limit.
    new_games: RateView | None = Field(default=None, description="new games per client address")
    actions: RateView | None = Field(default=None, description="actions per client address")
    expire_days: float | None = Field(
        default=None, description="days after which an untouched unfinished game is deleted"
    )


# --- live messages ----------------------------------------------------------------------------


class StateMessage(View):
    type: Literal["state"] = "state"
    game: GameView
    sent: float = Field(
        description="when the server sent it, in seconds since 1970 by its clock: a page counts a turn's "
        "time down by the server's clock, not its own"
    )


class UpdateMessage(View):
    """One change: the version it extends (``since``), the new version, the new events (each told)
    and other news, the turn as it is now, and the sheets of the players the change touched."""

    type: Literal["update"] = "update"
    since: int
    version: int
    events: list[EventView]
    news: list[str]
    turn: TurnView
    players: list[PlayerView]
    connected: list[int] = Field(default_factory=list, description="the seats whose player has a page open")
    sent: float = Field(
        description="when the server sent it, in seconds since 1970 by its clock: a page counts a turn's "
        "time down by the server's clock, not its own"
    )


class PresenceMessage(View):
    """A seat's player opened or closed their page: the seats whose player is here now."""

    type: Literal["presence"] = "presence"
    connected: list[int]


class ChancesMessage(View):
    """Every player's chance of winning at ``version`` of the game (ties shared), sent to the pages
    after each change once worked out, where this server holds the futures of every position."""

    type: Literal["chances"] = "chances"
    version: int
    win_chances: list[float]
    model: str = Field(description="what the chances assume, in one sentence")


class AgainMessage(View):
    """A seat started a new game with the same players: where to watch it and, sent to a page that
    said hello with a seat's token, that page's own seat in it (no page is sent another's)."""

    type: Literal["again"] = "again"
    watch_link: str
    seat_link: str | None = Field(
        default=None, description="the new game's link of the seat this page plays; null for a watcher"
    )


class QrRequest(BaseModel):
    """A link of this server to draw as a QR code."""

    link: Annotated[str, Field(min_length=1, max_length=300)]


class ErrorMessage(View):
    type: Literal["error"] = "error"
    status: int
    error: str
