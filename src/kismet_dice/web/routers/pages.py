"""The pages (one HTML page for every address: its script shows what the address asks for),
the rules, and the limits the pages must know, served from where the game defines them."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from kismet_dice import texts
from kismet_dice.session import LIMITS, narration
from kismet_dice.web.deps import Service
from kismet_dice.web.guard import Protections
from kismet_dice.web.limits import MAX_BODY_BYTES, MAX_MESSAGE_CHARACTERS
from kismet_dice.web.ratelimit import Rate
from kismet_dice.web.schemas import LimitsView, RateView, Rules, WordsView

STATIC = Path(str(resources.files("kismet_dice.web").joinpath("static")))
PAGES = ("/", "/games/{table_id}", "/hall")
LOADING = '<main id="main" tabindex="-1"><p>Loading…</p></main>'
SERVER = "this server"
"""Where the first run's work happens, as a page says it: on the server, not the reader's machine."""

router = APIRouter()


def index_page(title: str | None = None) -> str:
    """The one page every address serves (its script shows what the address asks for), titled."""
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    return (
        page if title is None else page.replace("<title>Kismet</title>", f"<title>{title} · Kismet</title>")
    )


for path in PAGES:

    @router.get(path, include_in_schema=False)
    async def page() -> HTMLResponse:
        return HTMLResponse(index_page())


def _article(markdown: str, title: str) -> str:
    """The page with the text rendered on the server (raw HTML in the Markdown is escaped)."""
    page = index_page(title)
    article = (
        f'<main id="main" tabindex="-1"><article class="rules">{texts.to_html(markdown)}</article></main>'
    )
    return page.replace(LOADING, article)


@router.get("/rules", include_in_schema=False)
async def rules_page() -> HTMLResponse:
    return HTMLResponse(_article(texts.rules_markdown(), "Rules"))


@router.get("/help", include_in_schema=False)
async def help_page() -> HTMLResponse:
    return HTMLResponse(_article(texts.help_markdown(), "How to play"))


@router.get("/api/rules.html", tags=["pages"])
async def rules_html() -> Rules:
    """The rules as an HTML fragment rendered on the server (for the rules dialog of a game)."""
    return Rules(text=texts.to_html(texts.rules_markdown()))


@router.get("/api/help.html", tags=["pages"])
async def help_html() -> Rules:
    """The guide to the program (keys, two-step entry, advice) as an HTML fragment rendered on the
    server, for the help dialog a table opens with ``?`` (as the terminal does)."""
    return Rules(text=texts.to_html(texts.help_markdown()))


@router.get("/api/rules", tags=["pages"])
async def rules() -> Rules:
    """The rules of Kismet as this program plays them, in Markdown."""
    return Rules(text=resources.files("kismet_dice").joinpath("RULES.md").read_text(encoding="utf-8"))


@router.get("/api/limits", tags=["pages"])
async def limits(request: Request, service: Service) -> LimitsView:
    """The limits a page must respect: seats, names, levels, boxes, the size of what it sends, the
    rates of new games and actions per client address, and when untouched games expire; and this
    server's pause before each action of a computer player."""
    protections: Protections = request.app.state.protections
    return LimitsView(
        max_seats=LIMITS.max_seats,
        max_name_length=LIMITS.max_name_length,
        levels=list(LIMITS.levels),
        boxes=list(LIMITS.boxes),
        computer_pace=service.pace,
        min_turn_seconds=LIMITS.min_turn_seconds,
        max_turn_seconds=LIMITS.max_turn_seconds,
        turn_seconds_choices=list(LIMITS.turn_seconds_choices),
        time_out_rule=narration.TIME_OUT_RULE,
        level_words=dict(LIMITS.level_words),
        computer_names=dict(LIMITS.computer_names),
        max_body_bytes=MAX_BODY_BYTES,
        max_message_characters=MAX_MESSAGE_CHARACTERS,
        new_games=_rate(protections.rate_games),
        actions=_rate(protections.rate_actions),
        expire_days=protections.expire_days or None,
    )


@router.get("/api/words", tags=["pages"])
async def words() -> WordsView:
    """The sentences a page shows that every interface says the same: the questions before
    resigning and before a zero, the advice's heading, columns and keys, and what the first run
    on a server does meanwhile."""
    return WordsView(
        resign_question=narration.RESIGN_QUESTION,
        zero_question=narration.zero_question("{box}"),
        advice_title=narration.ADVICE_TITLE,
        advice_columns=["", *narration.ADVICE_COLUMNS],
        advice_best=narration.BEST,
        advice_keys=narration.advice_keys(),
        win_column=narration.WIN_COLUMN,
        compiling=narration.compiling(SERVER),
        playing_reference=narration.playing_reference(SERVER),
    )


def _rate(rate: Rate | None) -> RateView | None:
    return None if rate is None else RateView(count=rate.count, seconds=rate.seconds)
