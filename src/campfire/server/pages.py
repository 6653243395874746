"""The pages: lobby, table, replay, rules, and each game's own drawing code and styles."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from campfire.i18n import LANGUAGES, language_of
from campfire.i18n.scripts import script_catalogue
from campfire.kernel import get_game
from campfire.server.language import page_language, render
from campfire.server.refusals import Refused
from campfire.server.webgame import web_game

STATIC = Path(__file__).parent / "static"


def add_page_routes(app: FastAPI) -> None:
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def lobby_page(request: Request) -> HTMLResponse:
        return render(STATIC / "index.html", request)

    @app.api_route("/t/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def table_page(table_id: str, request: Request) -> HTMLResponse:
        return render(STATIC / "table.html", request)

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str, request: Request) -> HTMLResponse:
        return render(STATIC / "replay.html", request)

    @app.get("/rules/{game_name}", include_in_schema=False)
    async def rules_page(game_name: str, request: Request) -> HTMLResponse:
        """The rules in the request's language (`rules.<lang>.html`), else in English."""
        web, game = _web_named(game_name)
        lang = page_language(request)
        rules = web.file(f"rules.{lang}.html") or web.file("rules.html")
        if rules is None:
            raise Refused(404, f"{game.title} has no rules page")
        return render(STATIC / "rules.html", request, title=game.title, rules=rules.read_text())

    @app.get("/i18n/{lang}.json", include_in_schema=False)
    async def catalogue(lang: str) -> Response:
        """The page scripts' messages in `lang` (msgid -> translation; plurals as lists)."""
        code = language_of(lang)
        if code is None:
            raise Refused(404, f"no language {lang[:20]!r} (languages: {', '.join(LANGUAGES)})")
        return Response(
            script_catalogue(code),
            media_type="application/json",
            headers={"Cache-Control": "no-cache"},
        )

    @app.get("/games/{game_name}/{file_name}", include_in_schema=False)
    async def game_file(game_name: str, file_name: str, request: Request) -> Response:
        web, game = _web_named(game_name)
        found = web.file(file_name)
        if found is None:
            raise Refused(404, f"{game.title} has no file {file_name[:60]!r}")
        kind = {
            "js": "text/javascript",
            "css": "text/css",
            "html": "text/html",
            "svg": "image/svg+xml",
        }
        body = found.read_bytes()
        # revalidated on every load (no-cache), answered 304 while unchanged
        tag = f'"{hashlib.sha256(body).hexdigest()[:20]}"'
        if tag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers={"ETag": tag})
        return Response(
            body,
            media_type=kind[file_name.rsplit(".", 1)[1]] + "; charset=utf-8",
            headers={"ETag": tag},
        )

    def _web_named(game_name: str) -> tuple[Any, Any]:
        try:
            game = get_game(game_name)
        except KeyError as error:
            raise Refused(404, str(error.args[0])) from None
        return web_game(game), game

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
