"""The Hall of Fame: the ten best game totals."""

from __future__ import annotations

from fastapi import APIRouter

from kismet_dice.web.deps import Service
from kismet_dice.web.errors import RESPONSES
from kismet_dice.web.schemas import HallEntryView
from kismet_dice.web.views import hall_view

router = APIRouter(prefix="/api/hall", tags=["hall of fame"], responses={503: RESPONSES[503]})


@router.get("")
async def hall(service: Service) -> list[HallEntryView]:
    """The Hall of Fame: the ten best game totals, best first."""
    return hall_view(await service.run(service.tables.hall))
