"""The catalogue as the page scripts read it (`GET /i18n/{lang}.json`): every message and its
translation, plural forms as lists (the page picks one with `Intl.PluralRules`, which agrees
with the catalogues' plural rules for the languages offered)."""

from __future__ import annotations

from functools import cache

import orjson

from campfire.i18n import DOMAIN, LOCALE_DIR, PSEUDO, catalog_of

#: gettext's separator of a context and its message
CONTEXT = "\x04"


@cache
def script_catalogue(lang: str) -> bytes:
    messages: dict[str, str | list[str]] = {}
    if lang == PSEUDO:
        from campfire.i18n.pseudo import pseudo_catalog

        catalog = pseudo_catalog()
    elif lang == "en" or not (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po").exists():
        catalog = None
    else:
        catalog = catalog_of(lang)
    for message in catalog or ():
        if not message.id or message.fuzzy:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        if message.context:
            key = f"{message.context}{CONTEXT}{key}"
        said = message.string
        if isinstance(said, str):
            if said:
                messages[key] = said
        elif said and all(said):
            messages[key] = list(said)
    return orjson.dumps({"lang": lang, "messages": messages})
