"""The page templates' messages: `{{ _("Back to the lobby") }}` in an HTML file is a message
(`pybabel extract` finds it through `extract_html`, named in babel.cfg) and `fill` puts its
translation there, HTML-escaped, when the page is served."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from typing import IO, Any

#: {{ _("message") }}: the message is a double-quoted string without escapes
MARK = re.compile(r'\{\{\s*_\("((?:[^"\\]|\\.)*)"\)\s*\}\}')


def extract_html(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    text = fileobj.read().decode(options.get("encoding", "utf-8"))
    for found in MARK.finditer(text):
        line = text.count("\n", 0, found.start()) + 1
        yield line, "gettext", found[1].replace('\\"', '"'), []


def fill(page: str, gettext: Callable[[str], str]) -> str:
    """`page` with every marked message translated by `gettext` (and escaped for HTML)."""
    return MARK.sub(lambda m: html.escape(gettext(m[1].replace('\\"', '"')), quote=True), page)
