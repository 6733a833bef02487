"""Games: setting one up, its state, a seat's actions, advice, the verdict and the live pages."""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, Response, WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter, ValidationError

from kismet_dice.game import Game, HouseRules, Roll, Score
from kismet_dice.rules import IllegalAction
from kismet_dice.session import HallAdvice, Seat, Setup
from kismet_dice.session.win_chances import course_chart
from kismet_dice.strategy import ComputerUnavailable, proficiency
from kismet_dice.web.deps import SeatToken, Service
from kismet_dice.web.errors import RESPONSES, message_of, status_of, validation_message
from kismet_dice.web.limits import MAX_MESSAGE_CHARACTERS
from kismet_dice.web.live import POLICY, Page, Refused
from kismet_dice.web.ratelimit import ACTION, NEW_GAME, TOO_MANY, Limiter, client_of, limiter_of
from kismet_dice.web.schemas import (
    Advice,
    ErrorMessage,
    GameView,
    HallAnswer,
    HallRequest,
    HelloMessage,
    Invitation,
    NewGame,
    NewGameRequest,
    PageMessage,
    ProficiencyView,
    RollMessage,
    RollRequest,
    ScoreMessage,
    ScoreRequest,
    SeatView,
    SyncMessage,
)
from kismet_dice.web.service import WebService
from kismet_dice.web.views import advice_options, hall_chances_view, hall_entry_view, proficiency_view

router = APIRouter(prefix="/api/games", tags=["games"], responses=RESPONSES)

PAGE_MESSAGE: TypeAdapter[RollMessage | ScoreMessage | SyncMessage | HelloMessage] = TypeAdapter(PageMessage)


@router.post("", status_code=201, dependencies=[NEW_GAME], responses=TOO_MANY)
async def new_game(request: NewGameRequest, service: Service) -> NewGame:
    """Set up a game: the dice decide who begins; the answer holds each seat's invitation link."""
    seats = tuple(Seat(seat.name, seat.computer) for seat in request.players)
    setup = Setup(seats, HouseRules(zero_kismet_counts=request.zero_kismet_counts))
    return await service.run(lambda: set_up(service, setup, request.turn_seconds))


def set_up(service: WebService, setup: Setup, turn_seconds: int | None = None) -> NewGame:
    """A new game of ``setup`` (``turn_seconds`` for each person's turn, or no limit): its id, its
    plain link, one invitation link per person's seat (on the store thread)."""
    created = service.tables.create(setup, turn_seconds)
    table = created.table
    answer = NewGame(
        id=table.id,
        watch_link=f"/games/{table.id}",
        invitations=[
            Invitation(seat=seat, name=name, link=f"/games/{table.id}#seat={token}")
            for seat, (name, token) in enumerate(
                zip(table.session.game.names, created.seat_tokens, strict=True)
            )
            if token is not None
        ],
        game=service.view(table),
    )
    # A computer that won the roll-off begins once the answer is on its way.
    service.follow(table)
    return answer


def _game_answer(game_json: bytes) -> Response:
    """A game view answered as the JSON the service put together (see ``WebService.view_json``):
    the routes state ``response_model=GameView`` for the schema, and FastAPI sends a ``Response``
    as it is, without validating and encoding the whole game once more."""
    return Response(game_json, media_type="application/json")


@router.get("/{table_id}", response_model=GameView)
async def show_game(table_id: str, service: Service) -> Response:
    """The game as it stands, with each player's chance of winning where the server knows them."""

    def look() -> tuple[bytes, Game]:
        table = service.follow(service.tables.get(table_id))
        return service.view_json(table), table.session.game.copy()

    view, game = await service.run(look)
    return _game_answer(await service.with_chances(view, game))


@router.get(
    "/{table_id}/chances.svg",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}}},
)
async def chances_chart(table_id: str, service: Service) -> Response:
    """Everyone's chance of winning over the game so far, entry by entry, as an SVG chart (where the
    server holds the futures of every position; else 503)."""
    game = await service.run(lambda: service.tables.get(table_id).session.game.copy())
    course = await asyncio.wrap_future(
        service.chances_thread.submit(lambda: service.win_chances.course(game))
    )
    if course is None:
        raise ComputerUnavailable(
            "the chances of winning need the futures of every position, not on this server"
        )
    return Response(course_chart(course), media_type="image/svg+xml")


@router.get("/{table_id}/seat")
async def seat(table_id: str, service: Service, token: SeatToken = None) -> SeatView:
    """The seat a seat token plays."""

    def work() -> SeatView:
        table = service.tables.get(table_id)
        number = table.seat_of(token)
        return SeatView(seat=number, name=table.session.game.names[number])

    return await service.run(work)


@router.post("/{table_id}/roll", dependencies=[ACTION], responses=TOO_MANY, response_model=GameView)
async def roll(table_id: str, request: RollRequest, service: Service, token: SeatToken = None) -> Response:
    """Roll every die not held, for the seat whose turn it is."""
    action = Roll(tuple(request.hold))
    return _game_answer(
        await service.run(lambda: service.view_json(service.tables.act(table_id, token, action).table))
    )


@router.post("/{table_id}/score", dependencies=[ACTION], responses=TOO_MANY, response_model=GameView)
async def score(table_id: str, request: ScoreRequest, service: Service, token: SeatToken = None) -> Response:
    """Enter the dice in a box, ending the turn."""
    action = Score(request.box)
    return _game_answer(
        await service.run(
            lambda: service.view_json(service.follow(service.tables.act(table_id, token, action).table))
        )
    )


@router.post("/{table_id}/resign", dependencies=[ACTION], responses=TOO_MANY, response_model=GameView)
async def resign(table_id: str, service: Service, token: SeatToken = None) -> Response:
    """Leave the game for good, in your turn or not: every open box of your sheet gets a 0 and you
    take no more turns; the game goes on for the others, and ends if no person is left to play."""
    return _game_answer(
        await service.run(
            lambda: service.view_json(service.follow(service.tables.resign(table_id, token).table))
        )
    )


@router.post("/{table_id}/advice", dependencies=[ACTION], responses=TOO_MANY)
async def advice(table_id: str, service: Service, token: SeatToken = None) -> Advice:
    """The computer's advice on your dice: every option with the expected final total, best first.

    Only for the seat whose turn it is, after its first roll. Asking marks the game assisted
    for good: an assisted game cannot enter the Hall of Fame. While the computer is getting
    ready (the first time on a server, a few seconds) the answer waits for it.

    Late in a game each option also gets its chance of a Hall of Fame total (``hall.target`` or
    more) where it is known already; where it still has to be worked out (``hall.pending``),
    ``POST .../advice/chances`` answers with it.
    """
    return await _advice(table_id, service, token, work_out=False)


@router.post("/{table_id}/advice/chances", dependencies=[ACTION], responses=TOO_MANY)
async def advice_chances(table_id: str, service: Service, token: SeatToken = None) -> Advice:
    """The same advice with each option's chance of a Hall of Fame total worked out: from a sheet
    with at most eight open boxes, exact, a few seconds at most the first time and at once after
    that (earlier in a game ``hall.line`` says when the chances show). Asking marks the game
    assisted, as advice does."""
    return await _advice(table_id, service, token, work_out=True)


async def _advice(table_id: str, service: Service, token: str | None, *, work_out: bool) -> Advice:
    advisor = await service.advisor(await service.run(lambda: service.tables.check_advice(table_id, token)))

    def advise() -> tuple[HallAdvice, GameView, Game]:
        change, options = service.tables.advise(table_id, token, advisor)
        table = change.table
        hall = table.session.hall_advice(table.seat_of(token), options, service.hall_chances)
        return hall, service.view(table), table.session.game.copy()

    hall, game, played = await service.run(advise)
    if work_out and hall.pending:
        # A pass over the sheet's futures: in a thread of its own, so neither the event loop nor
        # the store thread waits for it (cut short if the server stops meanwhile).
        hall = await asyncio.to_thread(
            service.hall_chances.work_out, hall, advisor, service.stopping.progress
        )
    options = advice_options(hall)
    if service.win_chances.available:
        # Each option's chance of winning, on the chances thread (milliseconds to a second).
        found = await asyncio.wrap_future(
            service.chances_thread.submit(lambda: service.win_chances.advice(played, hall.options))
        )
        if found is not None:
            options = [
                view.model_copy(update={"win_chance": chance})
                for view, chance in zip(options, found, strict=True)
            ]
    return Advice(options=options, hall=hall_chances_view(hall), game=game)


@router.get("/{table_id}/proficiency")
async def how_well(table_id: str, service: Service) -> ProficiencyView:
    """Once the game is over: each player's expected points lost against perfect play, the
    choices that cost most, and how each person's total compares with perfect play. Anyone with
    the game's link may ask."""
    table = await service.run(lambda: service.tables.get(table_id))
    if not table.session.game.is_over:
        raise IllegalAction("how well everyone played is shown once the game is over")
    advisor = await service.advisor(table)

    def judged() -> ProficiencyView:
        session = table.session
        try:
            # The first time on this machine, perfect play's distribution: a few seconds, cut short
            # if the server stops meanwhile (then answered 503).
            standings = session.work_out_standings(service.computer, service.stopping.progress)
        except ComputerUnavailable:
            standings = ()  # the review stands on its own; the standings wait for a later ask
        return proficiency_view(table, proficiency(session.game, advisor), standings)

    # A finished game no longer changes: read here, off the store thread, as long as it takes.
    return await asyncio.to_thread(judged)


@router.post("/{table_id}/hall", dependencies=[ACTION], responses=TOO_MANY)
async def enter_hall(
    table_id: str, request: HallRequest, service: Service, token: SeatToken = None
) -> HallAnswer:
    """Answer the Hall of Fame prompt for your seat once the game is over. The entry is null if
    you declined, or if meanwhile the total no longer makes the list (``told`` says which)."""

    def work() -> HallAnswer:
        change, outcome = service.tables.answer_hall(table_id, token, request.name)
        return HallAnswer(
            entry=None if outcome.entry is None else hall_entry_view(outcome.entry),
            told=list(outcome.told),
            game=service.view(change.table),
        )

    return await service.run(work)


# --- the live pages ---------------------------------------------------------------------------


def _error(status: int, message: str) -> str:
    return ErrorMessage(status=status, error=message).model_dump_json()


@router.websocket("/{table_id}/live")
async def live(socket: WebSocket, table_id: str, service: Service) -> None:
    """The game's live page: the whole game at once, then each change (see the API description)."""
    await socket.accept()
    # Actions sent over the socket count against the client's rate like those sent by POST.
    limiter, client = limiter_of(socket), client_of(socket)
    try:
        table = await service.run(lambda: service.tables.get(table_id))
        page = service.hub.join(table.id, socket, client)
    except Refused as refused:
        await socket.close(code=refused.code, reason=str(refused)[:120])
        return
    except Exception as error:
        await socket.send_text(_error(status_of(error), message_of(error)))
        await socket.close(code=POLICY)
        return
    try:
        service.hub.send(page, await service.run(lambda: service.state_message(service.follow(table))))
        # Then everyone's chance of winning, once worked out (after the game, which the page needs first).
        await service.run(lambda: service.tell_chances(table))
        while True:
            incoming = await socket.receive()
            if incoming["type"] == "websocket.disconnect":
                return
            refusal = await _act(service, page, table_id, incoming.get("text"), (limiter, client))
            if refusal is not None:
                service.hub.send(page, _error(*refusal))
    except (WebSocketDisconnect, asyncio.CancelledError):
        # A page that fell behind is cancelled here: leaving closes its connection.
        return
    finally:
        service.hub.leave(page)
        if page.seat is not None:
            service.tell_presence(table_id)
        if page.closing is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(socket.close(code=1013, reason=page.closing[:120]), 1.0)


async def _act(
    service: Service, page: Page, table_id: str, text: str | None, limits: tuple[Limiter, str]
) -> tuple[int, str] | None:
    """Carry out one message from a page; the refusal (status, words) if it is refused.
    ``limits`` is the server's limiter and the page's client, whose rate actions count against."""
    if text is None:
        return 400, "send JSON text, not binary data"
    if len(text) > MAX_MESSAGE_CHARACTERS:
        return 413, f"a message has at most {MAX_MESSAGE_CHARACTERS} characters"
    try:
        message = PAGE_MESSAGE.validate_json(text)
    except ValidationError as error:
        return validation_message(error)
    try:
        if isinstance(message, SyncMessage):
            service.hub.send(
                page, await service.run(lambda: service.state_message(service.tables.get(table_id)))
            )
        elif isinstance(message, HelloMessage):
            # Checked against the seat's digest like any action: a page cannot claim a seat it lacks.
            token = message.token
            page.seat = await service.run(lambda: service.tables.get(table_id).seat_of(token))
            service.tell_presence(table_id)
        elif isinstance(message, RollMessage):
            limits[0].action(limits[1])
            roll = Roll(tuple(message.hold))
            await service.run(lambda: service.tables.act(table_id, message.token, roll))
        else:
            limits[0].action(limits[1])
            score = Score(message.box)
            await service.run(
                lambda: service.follow(service.tables.act(table_id, message.token, score).table)
            )
    except Exception as error:
        status = status_of(error)
        if status == 500:
            raise
        return status, message_of(error)
    return None
