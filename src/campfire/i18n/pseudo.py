"""The pseudo-locale: every message of the template accented and about 40% longer, its
placeholders, markup and tags left whole. Layout tests render pages in it to find text that
does not fit, and strings that never went through a catalogue (they stay plain English)."""

from __future__ import annotations

import re
from functools import lru_cache

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

_ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçđéƒğĥíĵķĺɱñóƥqŕšťúvŵxýžÁƁÇĐÉƑĞĤÍĴĶĹMÑÓƤQŔŠŤÚVŴXÝŽ",
)
#: what is never touched: {placeholders}, [rich markup], <tags>, &entities;, %(printf)s
_KEEP = re.compile(r"\{[^{}]*\}|\[/?[a-z ]*\]|<[^>]*>|&[a-z#0-9]+;|%\(\w+\)[sd]|\$\{[^}]*\}")
_PAD = "ŀóŕéɱ ïƥšúɱ đóĺóŕ šíť áɱéť çóñšéçťéťúŕ"


def pseudo(message: str, pad: bool = True) -> str:
    """`message` accented (and, with `pad`, 40% longer)."""
    out: list[str] = []
    at = 0
    for keep in _KEEP.finditer(message):
        out.append(message[at : keep.start()].translate(_ACCENTS))
        out.append(keep.group())
        at = keep.end()
    out.append(message[at:].translate(_ACCENTS))
    said = "".join(out)
    if not pad or not message.strip():
        return said
    extra = max(1, round(len(message) * 0.4))
    filler = (_PAD * (extra // len(_PAD) + 1))[:extra].strip()
    # padding goes before a trailing newline, so lines stay lines
    body, tail = said.rstrip("\n"), said[len(said.rstrip("\n")) :]
    return f"{body} {filler}{tail}"


@lru_cache(maxsize=1)
def pseudo_catalog() -> Catalog:
    from campfire.i18n import DOMAIN, LOCALE_DIR

    with (LOCALE_DIR / f"{DOMAIN}.pot").open("rb") as fp:
        template = read_po(fp, domain=DOMAIN)
    catalog = Catalog(locale="en", domain=DOMAIN)
    for message in template:
        if not message.id:
            continue
        pad = message.context != "command"
        if isinstance(message.id, tuple | list):
            forms = tuple(pseudo(m, pad) for m in message.id)
            catalog.add(message.id, forms, context=message.context)
        else:
            catalog.add(message.id, pseudo(message.id, pad), context=message.context)
    return catalog
