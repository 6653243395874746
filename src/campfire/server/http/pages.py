"""The pages: lobby, table, replay, rules, each game's own drawing code and styles, and the page
that tells a person a refusal."""

from __future__ import annotations

import hashlib
import math
from html import escape
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from campfire.i18n import LANGUAGES, N_, PSEUDO, language_of, refusal_text, translator
from campfire.i18n.extract import fill
from campfire.i18n.scripts import script_catalogue
from campfire.kernel import get_game
from campfire.server.http.language import page_language, render
from campfire.server.refusals import Refusal, Refused, said, told
from campfire.server.tables.webgame import web_game

STATIC = Path(__file__).parent.parent / "static"


def add_page_routes(app: FastAPI) -> None:
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def lobby_page(request: Request) -> HTMLResponse:
        return render(STATIC / "index.html", request)

    @app.api_route("/t/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def table_page(table_id: str, request: Request) -> HTMLResponse:
        return render(STATIC / "table.html", request)

    @app.api_route("/account", methods=["GET", "HEAD"], include_in_schema=False)
    async def account_page(request: Request) -> HTMLResponse:
        return render(STATIC / "account.html", request)

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
            raise Refused(404, Refusal(N_("{title} has no rules page"), title=game.title))
        return render(STATIC / "rules.html", request, title=game.title, rules=rules.read_text())

    @app.get("/i18n/{lang}.json", include_in_schema=False)
    async def catalogue(lang: str) -> Response:
        """The page scripts' messages in `lang` (msgid -> translation; plurals as lists)."""
        code = language_of(lang)
        if code is None:
            raise Refused(
                404,
                Refusal(
                    N_("no language {lang!r} (languages: {languages})"),
                    lang=lang[:20],
                    languages=", ".join(LANGUAGES),
                ),
            )
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
            raise Refused(
                404,
                Refusal(N_("{title} has no file {file!r}"), title=game.title, file=file_name[:60]),
            )
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
            raise Refused(404, said(error)) from None
        return web_game(game), game

    app.mount("/static", StaticFiles(directory=STATIC), name="static")


#: a refused page's heading and what a person can do about it, by status
REFUSAL_PAGES = {
    400: (N_("This request could not be read"), N_("Go back and try again.")),
    401: (
        N_("This needs your seat"),
        N_("Open the table from the browser you sat down with."),
    ),
    403: (N_("This is not open to you"), N_("Back to the lobby to find or start a table.")),
    404: (
        N_("Nothing here"),
        N_(
            "The address may be mistyped, or the table has expired. Find or start a table in "
            "the lobby."
        ),
    ),
    409: (
        N_("Not at this point of the game"),
        N_("Go back to the table: it shows what can be done now."),
    ),
    429: (
        N_("Too many at once from your address"),
        N_(
            "The server limits what one address may do at once, so that no script can crowd "
            "out the people playing. Nothing is lost: wait a little, then try again."
        ),
    ),
}
#: the heading and advice of a refusal with any other status
REFUSED_OTHERWISE = (N_("This cannot be done"), N_("Go back and try again."))


def wants_page(accept: str) -> bool:
    """Whether the request is a browser opening the address: its Accept header ranks
    text/html above JSON (`fetch` and API clients send `*/*` or `application/json`)."""
    ranks: dict[str, float] = {}
    for part in accept.split(","):
        kind, *params = (p.strip() for p in part.split(";"))
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        ranks[kind.lower()] = max(q, ranks.get(kind.lower(), 0.0))
    html = ranks.get("text/html", 0.0)
    json = max(ranks.get(k, 0.0) for k in ("application/json", "application/*", "*/*"))
    return html > json


def refusal(
    request: Request, status: int, reason: str, retry_after: float | None = None
) -> Response:
    """A refusal as `{"error": reason}`, or as a page for a browser that opened the address:
    what happened, what to do, and when to try again if that is known (`Retry-After`)."""
    headers = {"Retry-After": str(math.ceil(retry_after))} if retry_after is not None else {}
    lang = page_language(request)
    tr = translator(lang)
    if not wants_page(request.headers.get("accept", "")):
        # {"error": the reason told in the request's language, "key" and "args": its meaning}
        said = told({"error": ""}, reason, lang, "error")
        return JSONResponse(said, status_code=status, headers=headers)
    reason = refusal_text(reason, tr)
    heading, advice = (tr.gettext(t) for t in REFUSAL_PAGES.get(status, REFUSED_OTHERWISE))
    when = ""
    if retry_after is not None:
        seconds = math.ceil(retry_after)
        when = tr.ngettext("Try again in {n} second.", "Try again in {n} seconds.", seconds)
    page = fill((STATIC / "refused.html").read_text(), tr.gettext)
    shown = "en" if lang == PSEUDO else lang
    page = page.replace('<html lang="en">', f'<html lang="{shown}" data-lang="{lang}">', 1)
    for key, value in {
        "status": str(status),
        "heading": heading,
        "reason": reason[:1].upper() + reason[1:] + ("" if reason.endswith(".") else "."),
        "advice": advice,
        "when": when,
    }.items():
        page = page.replace("{{" + key + "}}", escape(value))
    page = page.replace('<p class="refusal-when"></p>', "")
    # the same address again, for a page load (a person cannot resend anything else from here)
    again = request.url.path if request.method in ("GET", "HEAD") else None
    again_word = escape(tr.gettext("Try again"))
    link = f'<a class="button" href="{escape(again)}">{again_word}</a>' if again else ""
    page = page.replace("{{again}}", link)
    return HTMLResponse(page, status_code=status, headers=headers)
