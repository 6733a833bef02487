"""Statistics of the site's finished games, per name, and their charts as SVG made here.

The figures are the command's (``kismet stats --json``): people only, assisted games counted apart.
A chart compares with perfect play and the easy and medium players when the strategy table is on
this machine; while it is not, the chart is drawn without them rather than waiting for a solve.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from kismet_dice.session.stat_charts import ChartKind, chart_svg, reference_svg
from kismet_dice.session.statistics import NoGames, PlayerStatistics, Statistics, statistics
from kismet_dice.strategy import ComputerUnavailable
from kismet_dice.web.deps import Service
from kismet_dice.web.errors import RESPONSES
from kismet_dice.web.routers.pages import index_page
from kismet_dice.web.schemas import ChartReferenceView
from kismet_dice.web.service import WebService

router = APIRouter(tags=["statistics"], responses={503: RESPONSES[503]})

SVG_TYPE = "image/svg+xml"


@router.get("/stats", include_in_schema=False)
async def stats_page() -> HTMLResponse:
    return HTMLResponse(index_page("Statistics"))


# A name may hold "/" (a page's link encodes it as %2F, which the server reads as "/" again): the
# routes of a name take the rest of the path, and the chart's route, being longer, comes first.
@router.get("/stats/{name:path}", include_in_schema=False)
async def player_page(name: str) -> HTMLResponse:
    return HTMLResponse(index_page("Statistics"))


async def _statistics(service: WebService) -> Statistics:
    # The store is read on the store thread, as every route reads it (a SQLite store serves its
    # own thread); replaying the games, which takes longer, runs in a worker thread.
    games = await service.run(lambda: service.stores.get().finished.all())
    return await asyncio.to_thread(statistics, games)


@router.get("/api/stats")
async def all_stats(service: Service) -> dict[str, Any]:
    """Every name's figures over the site's finished games, as ``kismet stats --json``."""
    return (await _statistics(service)).as_json()


async def _player(service: WebService, name: str) -> PlayerStatistics:
    found = (await _statistics(service)).player(name)
    if found is None:
        raise NoGames(f"{name} has no finished games here")
    return found


@router.get(
    "/api/stats/{name:path}/chart/{kind}.svg",
    response_class=Response,
    responses={200: {"content": {SVG_TYPE: {}}}, 404: RESPONSES[404]},
)
async def player_chart(name: str, kind: ChartKind, service: Service) -> Response:
    """One of ``name``'s charts as SVG: ``totals``, ``time`` or ``boxes``."""
    player = await _player(service, name)
    found = await asyncio.to_thread(service.chart_reference.get)
    return Response(chart_svg(kind, player, found), media_type=SVG_TYPE)


@router.get(
    "/api/chart-reference/totals.svg",
    response_class=Response,
    responses={200: {"content": {SVG_TYPE: {}}}},
)
async def reference_chart(service: Service) -> Response:
    """The totals of perfect play and the medium and easy players alone, as SVG (what the statistics
    page shows before any game is finished); 503 while the strategy table is not on this server."""
    found = await asyncio.to_thread(service.chart_reference.get)
    if found is None:
        raise ComputerUnavailable("the strategy table is not on this server yet")
    return Response(reference_svg(found), media_type=SVG_TYPE)


@router.get("/api/chart-reference")
async def chart_reference(service: Service) -> ChartReferenceView:
    """Whether the games the charts compare with are being played (the first time on a server), and
    how far: a page waiting for its charts says so."""
    progress = service.chart_reference.progress
    return ChartReferenceView(
        playing=progress is not None,
        progress=None if progress is None else round(progress, 3),
        available=service.chart_reference.available,
    )


@router.get("/api/stats/{name:path}", responses={404: RESPONSES[404]})
async def player_stats(name: str, service: Service) -> dict[str, Any]:
    """One name's figures (exactly as written): ``{"players": [{...}]}``; 404 if it has no finished game."""
    return {"players": [(await _player(service, name)).as_json()]}
