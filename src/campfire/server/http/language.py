"""Which language a page speaks, and the pages' own words through the catalogues.

A request's language is `?lang=xx`, then the remembered choice (the `lang` cookie, set whenever
`?lang=` picks one), then `Accept-Language`, then English. The page templates mark their words
`{{ _("...") }}`; every page gets `<html lang="xx">` and a language picker.
"""

from __future__ import annotations

import html
from functools import cache
from pathlib import Path

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from campfire.i18n import LANGUAGES, NAMES, PSEUDO, language_of, negotiate, translator
from campfire.i18n.extract import fill

COOKIE = "lang"
#: a remembered choice lasts a year
COOKIE_AGE = 365 * 24 * 3600


def page_language(request: Request) -> str:
    return negotiate(
        request.query_params.get("lang"),
        request.cookies.get(COOKIE),
        request.headers.get("accept-language"),
    )


def remember(request: Request, response: Response, lang: str) -> Response:
    """Keep the language `?lang=` asked for (only a language offered)."""
    asked = language_of(request.query_params.get("lang"))
    if asked is not None and asked == lang and request.cookies.get(COOKIE) != lang:
        response.set_cookie(COOKIE, lang, max_age=COOKIE_AGE, samesite="lax", path="/")
    return response


def picker(lang: str, path: str) -> str:
    """Links to the same page in every language (the current one marked)."""
    tr = translator(lang)
    links = []
    for code in LANGUAGES:
        current = ' aria-current="true"' if code == lang else ""
        links.append(
            f'<a href="{html.escape(path)}?lang={code}" hreflang="{code}" lang="{code}"'
            f"{current}>{html.escape(NAMES[code])}</a>"
        )
    label = html.escape(tr.gettext("Language"))
    return f'<nav class="lang-picker" aria-label="{label}">{" ".join(links)}</nav>'


@cache
def _template(path: Path) -> str:
    return path.read_text()


def render(template: Path, request: Request, **values: str) -> HTMLResponse:
    """`template` in the request's language: its marked words translated, `{{name}}` filled
    from `values` (already HTML), `<html lang>` set and the picker added."""
    lang = page_language(request)
    tr = translator(lang)
    page = fill(_template(template), tr.gettext)
    for name, value in values.items():
        page = page.replace("{{" + name + "}}", value)
    shown = "en" if lang == PSEUDO else lang
    page = page.replace('<html lang="en">', f'<html lang="{shown}" data-lang="{lang}">', 1)
    page = page.replace("</body>", picker(lang, request.url.path) + "\n</body>", 1)
    return remember(request, HTMLResponse(page), lang)  # type: ignore[return-value]
