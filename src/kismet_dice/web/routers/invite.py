"""Invitations: a link drawn as a QR code (for a phone at the same table), and a new game with
the same players once one is over."""

from __future__ import annotations

import io

import segno
from fastapi import APIRouter
from fastapi.responses import Response

from kismet_dice.rules import IllegalAction
from kismet_dice.session import Setup
from kismet_dice.web.deps import SeatToken, Service
from kismet_dice.web.errors import RESPONSES
from kismet_dice.web.ratelimit import NEW_GAME, TOO_MANY
from kismet_dice.web.routers.games import set_up
from kismet_dice.web.schemas import AgainMessage, NewGame, QrRequest

router = APIRouter(tags=["games"], responses=RESPONSES)


def qr_svg(link: str) -> str:
    """The link as a QR code in SVG, drawn on the server (no script, no style attribute), so a page
    needs no code from elsewhere to show it. Medium error correction survives a glare on a screen."""
    out = io.BytesIO()
    segno.make(link, error="m", micro=False).save(
        out,
        kind="svg",
        scale=4,
        border=2,
        light="#fff",
        xmldecl=False,
        svgns=True,
        title="QR code of the link",
    )
    return out.getvalue().decode("utf-8")


@router.post("/api/qr", response_class=Response, responses={200: {"content": {"image/svg+xml": {}}}})
async def qr(request: QrRequest) -> Response:
    """A link as a QR code (SVG). Sent in the body, not the address, so a seat's secret stays out
    of the server's access log."""
    if not request.link.startswith(("http://", "https://")):
        raise IllegalAction("only a web link is drawn as a QR code")
    return Response(qr_svg(request.link), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


# A new game like any other: it counts against the address's rate of new games.
@router.post("/api/games/{table_id}/again", status_code=201, dependencies=[NEW_GAME], responses=TOO_MANY)
async def again(table_id: str, service: Service, token: SeatToken = None) -> NewGame:
    """Once a game is over, a seat of it starts a new game with the same players, house rule and
    time per turn.
    The answer holds the new seat links (for whoever asked, to pass on the links of seats whose
    player has no page open). Every page of the old game is told where the new one is: a page
    that said hello with a seat's token gets that seat's new link, and only that one; a watcher
    gets the plain link."""

    def work() -> NewGame:
        table = service.tables.get(table_id)
        table.seat_of(token)
        session = table.session
        if not session.game.is_over:
            raise IllegalAction("a new game with the same players is started once this one is over")
        return set_up(service, Setup(session.seats, session.game.house_rules), table.turn_seconds)

    answer = await service.run(work)
    # The seats keep their places (the set-up is the same), so each page's seat has the same number.
    links = {invitation.seat: invitation.link for invitation in answer.invitations}
    for page in service.hub.every(table_id):
        own = None if page.seat is None else links.get(page.seat)
        service.hub.send(page, AgainMessage(watch_link=answer.watch_link, seat_link=own).model_dump_json())
    return answer


__all__ = ["qr_svg", "router"]
