"""Players' profiles and the leaderboards: `GET /api/players/{name}`,
`GET /api/leaderboard/{game}`, `GET /api/seat-ratings`, and the pages `/p/{name}` and
`/leaderboard/{game}` (docs/accounts.md, "How ratings are computed")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse

from campfire.accounts.folding import name_key
from campfire.i18n import N_
from campfire.kernel import get_game
from campfire.server.http.language import render
from campfire.server.http.requests import query_int
from campfire.server.refusals import Refusal, Refused, said
from campfire.server.store.results import (
    PAGE_DEFAULT,
    PAGE_MAX,
    RECENT_DEFAULT,
    RECENT_MAX,
    Results,
)

STATIC = Path(__file__).parent.parent / "static"
#: tables one `seat-ratings` request may ask about (the lobby's page of tables)
SEAT_RATINGS_MAX = 60


def add_profile_routes(app: FastAPI, results: Results, store: Any) -> None:
    """`store` runs a synchronous call off the event loop (`Hub.store`)."""

    @app.get("/api/players/{name}")
    async def player(name: str, request: Request) -> dict[str, Any]:
        limit = query_int(request, "limit", RECENT_DEFAULT, 1, RECENT_MAX)
        found = await store(results.player, name, name_key(name[:100]), limit)
        if found is None:
            raise Refused(404, Refusal(N_("there is no player named {name!r}"), name=name[:40]))
        return dict(found)

    @app.get("/api/leaderboard/{game}")
    async def leaderboard(game: str, request: Request) -> dict[str, Any]:
        _game_named(game)
        offset = query_int(request, "offset", 0, 0, 10**9)
        limit = query_int(request, "limit", PAGE_DEFAULT, 1, PAGE_MAX)
        return dict(await store(results.leaderboard, game, offset, limit))

    @app.get("/api/seat-ratings")
    async def seat_ratings(request: Request) -> dict[str, Any]:
        """The rating beside each signed-in player's name at the tables asked about
        (`?tables=id,id,...`): `{"tables": {id: {seat: {"rating", "provisional"}}}}`."""
        ids = [t for t in request.query_params.get("tables", "").split(",") if t][
            : SEAT_RATINGS_MAX + 1
        ]
        if len(ids) > SEAT_RATINGS_MAX:
            raise Refused(
                422, Refusal(N_("ask about at most {limit} tables at once"), limit=SEAT_RATINGS_MAX)
            )
        return {"tables": await store(results.seat_ratings, [t[:32] for t in ids])}

    @app.get("/p/{name}", include_in_schema=False)
    async def profile_page(name: str, request: Request) -> HTMLResponse:
        return render(STATIC / "profile.html", request)

    @app.get("/leaderboard/{game}", include_in_schema=False)
    async def leaderboard_page(game: str, request: Request) -> HTMLResponse:
        _game_named(game)
        return render(STATIC / "leaderboard.html", request)


def _game_named(name: str) -> None:
    try:
        get_game(name)
    except KeyError as error:
        raise Refused(404, said(error)) from None
