"""Campfire in several languages: gettext catalogues read through Babel.

One process serves people who read different languages, so there is no process-wide "current
language": whoever speaks asks for a `Translator` of its own language (`translator("fr")`) and
renders its sentences with it. Messages are English source strings with `{name}` placeholders;
plurals go through the catalogue's plural forms (`ngettext`), numbers and dates through
`babel.numbers` and `babel.dates`.

The catalogues live in `campfire/locale/<lang>/LC_MESSAGES/campfire.po`; the install compiles
them to `.mo` (`pybabel compile -d src/campfire/locale -D campfire`), and a missing or stale `.mo`
is compiled from its `.po` when first needed, so a fresh checkout works as it is.
"""

from __future__ import annotations

import io
import os
import re
import threading
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_datetime
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from babel.support import NullTranslations, Translations

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LEVELS",
    "LOCALE_DIR",
    "NAMES",
    "NC_",
    "N_",
    "PSEUDO",
    "Translator",
    "error_text",
    "from_environment",
    "language_of",
    "message_text",
    "negotiate",
    "translator",
]

DOMAIN = "campfire"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
#: the languages offered, English (the source) first
LANGUAGES: tuple[str, ...] = ("en", "fr", "de", "it", "es")
#: each language's name in itself, for the pickers
NAMES: Mapping[str, str] = {
    "en": "English",
    "fr": "Français",
    "de": "Deutsch",
    "it": "Italiano",
    "es": "Español",
}
#: the pseudo-locale for layout tests: every message accented and 40% longer (not offered)
PSEUDO = "xx"


def N_(message: str) -> str:
    """Marks a message for extraction where it is defined; translated where it is said."""
    return message


def NC_(context: str, message: str) -> str:
    """Marks a message with a context (`pgettext`'s) for extraction."""
    return message


#: the bot levels' words shown to people (the names themselves stay English identifiers)
LEVELS: tuple[str, ...] = (
    NC_("level", "random"),
    NC_("level", "easy"),
    NC_("level", "medium"),
    NC_("level", "hard"),
    NC_("level", "expert"),
)


def language_of(tag: str | None) -> str | None:
    """The offered language a tag names ("de-AT", "fr_FR.UTF-8", "IT"), else None."""
    if not tag:
        return None
    code = re.split(r"[-_.@]", tag.strip(), maxsplit=1)[0].lower()
    if code == PSEUDO or code in LANGUAGES:
        return code
    return None


def negotiate(
    asked: str | None = None, remembered: str | None = None, accept_language: str | None = None
) -> str:
    """The language to speak: `?lang=` first, then the remembered choice (a cookie), then the
    browser's `Accept-Language` (by its q-values), then English."""
    for tag in (asked, remembered):
        found = language_of(tag)
        if found is not None:
            return found
    if accept_language:
        ranked: list[tuple[float, int, str]] = []
        for i, part in enumerate(accept_language.split(",")):
            tag, _, params = part.strip().partition(";")
            q = 1.0
            match = re.search(r"q\s*=\s*([0-9.]+)", params)
            if match:
                try:
                    q = float(match[1])
                except ValueError:
                    q = 0.0
            if tag and q > 0:
                ranked.append((-q, i, tag))
        for _, _, tag in sorted(ranked):
            found = language_of(tag)
            if found is not None and found != PSEUDO:
                return found
    return "en"


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language from LC_ALL, then LC_MESSAGES, then LANG (POSIX order)."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return language_of(value) or "en"
    return "en"


class Translator:
    """The messages, plurals, numbers and dates of one language."""

    def __init__(self, lang: str, translations: NullTranslations) -> None:
        self.lang = lang
        self.translations = translations
        self.locale = Locale.parse("en" if lang == PSEUDO else lang)

    def gettext(self, message: str, /, **args: Any) -> str:
        """`message` in this language, its `{placeholders}` filled from `args`."""
        said = self.translations.gettext(message)
        return said.format(**args) if args else said

    __call__ = gettext

    def ngettext(self, singular: str, plural: str, n: int, /, **args: Any) -> str:
        """The form for `n` (the language's plural rules); `{n}` is `n` written in it."""
        said = self.translations.ngettext(singular, plural, n)
        return said.format(n=self.number(n), **args)

    def pgettext(self, context: str, message: str, /, **args: Any) -> str:
        said = str(self.translations.pgettext(context, message))
        return said.format(**args) if args else said

    def seat(self, s: int, viewer: int | None) -> str:
        """Seat `s` as the narration names it to `viewer`: "you" for the viewer's own seat,
        "seat 2" for another (one wording for both games' narration)."""
        return self.gettext("you") if s == viewer else self.gettext("seat {seat}", seat=s)

    def level(self, name: str) -> str:
        """A bot level's word for people; the English name stays the identifier on the wire
        and in records (an unknown level is shown as it is)."""
        return self.pgettext("level", name) if name in LEVELS else name

    def number(self, value: float) -> str:
        return format_decimal(value, locale=self.locale)

    def decimal(self, value: float, digits: int = 1) -> str:
        """`value` with exactly `digits` after the locale's decimal sign ("3,5" in German)."""
        pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
        return format_decimal(value, format=pattern, locale=self.locale, decimal_quantization=True)

    def percent(self, value: float, digits: int = 0) -> str:
        """`value` (0.42) as a percentage in the locale ("42 %" in French and German)."""
        pattern = _with_digits(self.locale.percent_formats[None].pattern, digits)
        return format_percent(value, format=pattern, locale=self.locale, decimal_quantization=True)

    def formatted(self, value: float, style: str, digits: int) -> str:
        """A `campfire.kernel.errors.Number`'s value in the locale."""
        if style == "percent":
            return self.percent(value, digits)
        return self.decimal(value, digits)

    def date(self, value: date, format: str = "medium") -> str:
        return format_date(value, format=format, locale=self.locale)

    def datetime(self, value: datetime, format: str = "medium") -> str:
        return format_datetime(value, format=format, locale=self.locale)

    def join(self, items: Iterable[str]) -> str:
        """'a, b and c' in this language."""
        from babel.lists import format_list

        return format_list(list(items), locale=self.locale)

    def __repr__(self) -> str:
        return f"<Translator {self.lang}>"


_lock = threading.Lock()


def _with_digits(pattern: str, digits: int) -> str:
    """A Babel number pattern ("#,##0 %") with `digits` fixed digits after the point."""
    pattern = pattern.split(";")[0]
    if digits <= 0:
        return pattern
    at = pattern.rfind("0") + 1
    return pattern[:at] + "." + "0" * digits + pattern[at:]


@cache
def translator(lang: str | None = "en") -> Translator:
    """The translator of `lang` (anything unknown reads English)."""
    code = language_of(lang) or "en"
    with _lock:
        return Translator(code, _load(code))


def refusal_text(problem: object, tr: Translator) -> str:
    """A refusal in `tr`'s language: the rules' and the server's own (a `Refusal` keeps its
    template and values; a value that names a thing, such as an animal, is named in the
    language; a reason inside it is told the same way; a `Number` is written in the locale, as
    is a fraction such as seconds to wait) or, for any other reason, the reason as it was said.
    A refusal that counts (`plural` beside its values' `n`) takes the language's plural form."""
    template = getattr(problem, "template", None)
    values = getattr(problem, "values", None)
    if isinstance(template, str) and isinstance(values, dict):
        named = {k: _refusal_value(k, v, tr) for k, v in values.items()}
        plural = getattr(problem, "plural", None)
        if isinstance(plural, str) and isinstance(values.get("n"), int):
            named.pop("n")
            return tr.ngettext(template, plural, values["n"], **named)
        return tr.gettext(template, **named)
    return str(problem)


def _refusal_value(name: str, value: object, tr: Translator) -> object:
    if name == "level" and isinstance(value, str):
        return tr.level(value)
    if isinstance(getattr(value, "template", None), str):
        return refusal_text(value, tr)
    style = getattr(value, "style", None)
    if style is not None and hasattr(value, "digits"):
        return tr.formatted(value.value, style, value.digits)  # type: ignore[attr-defined]
    if isinstance(value, str):
        return tr.pgettext("animal", value) if value else value
    if isinstance(value, float) and abs(value) < 1e15:
        # seconds to wait, hours: "2,5" in French (whole numbers, such as seats, limits and
        # counts, are written as they are sent, and a number out of all measure as it is)
        return tr.number(value)
    return value


def message_text(message: object, tr: Translator) -> str:
    """A message sent as data (`Refusal.to_json`: `{"key", "args"}`, args nested alike or
    `{"number", "style", "digits"}`) in `tr`'s language; a plain string as it is."""
    if isinstance(message, dict) and isinstance(message.get("key"), str):
        args = message.get("args") or {}
        template: str = message["key"]
        return tr.gettext(template, **{k: _arg_text(v, tr) for k, v in args.items()})
    return str(message)


def _arg_text(value: object, tr: Translator) -> object:
    if isinstance(value, dict) and "key" in value:
        return message_text(value, tr)
    if isinstance(value, dict) and "number" in value:
        return tr.formatted(value["number"], str(value.get("style")), int(value.get("digits", 0)))
    if isinstance(value, str):
        return tr.pgettext("animal", value)
    return value


def error_text(error: BaseException, tr: Translator) -> str:
    """An engine error (`OptionError`, `RecordError`, a `ValueError` or `KeyError` of the
    rules) told in `tr`'s language: the engine marks its messages, the edge translates them."""
    message = getattr(error, "message", None)
    if callable(message):
        return refusal_text(message(), tr)
    if error.args and isinstance(error.args[0], str):
        return refusal_text(error.args[0], tr)
    return str(error)


def _load(lang: str) -> NullTranslations:
    if lang == "en":
        return NullTranslations()
    if lang == PSEUDO:
        from campfire.i18n.pseudo import pseudo_catalog

        return _from_catalog(pseudo_catalog())
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fp:
            return Translations(fp, domain=DOMAIN)
    if not po.exists():
        return NullTranslations()
    with po.open("rb") as fp:
        catalog = read_po(fp, locale=lang, domain=DOMAIN)
    return _from_catalog(catalog)


def _from_catalog(catalog: Catalog) -> Translations:
    """A catalogue compiled in memory (a fresh checkout has no `.mo` yet)."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def catalog_of(lang: str) -> Catalog:
    """The `.po` catalogue of `lang` as Babel reads it (tests and the JSON catalogues)."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as fp:
        return read_po(fp, locale=lang, domain=DOMAIN)


def known(lang: str) -> bool:
    try:
        Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        return False
    return True
