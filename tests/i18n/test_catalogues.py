"""The catalogues: every message of the template translated in every language, nothing fuzzy,
the same placeholders as the source; the language negotiated as the contract says."""

from __future__ import annotations

import re
import string
from typing import Any

import pytest
from babel.messages.pofile import read_po

from campfire.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, catalog_of, negotiate, translator
from campfire.i18n.pseudo import pseudo

#: Rich markup is a placeholder of its own kind: a translation keeps it
MARKUP = re.compile(r"\[/?[a-z ]*\]")


def placeholders(message: str) -> set[str]:
    names = {name for _, name, _, _ in string.Formatter().parse(message) if name is not None}
    return names | set(MARKUP.findall(message))


def template() -> list[tuple[str | None, Any]]:
    with (LOCALE_DIR / f"{DOMAIN}.pot").open("rb") as fp:
        return [(m.context, m.id) for m in read_po(fp) if m.id]


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_message_is_translated_with_the_same_placeholders(lang: str) -> None:
    catalog = catalog_of(lang)
    assert not catalog.fuzzy
    for context, msgid in template():
        message = catalog.get(msgid if isinstance(msgid, str) else msgid[0], context=context)
        assert message is not None, f"{lang}: {msgid!r} missing"
        assert not message.fuzzy, f"{lang}: {msgid!r} is fuzzy"
        sources = [msgid] if isinstance(msgid, str) else list(msgid)
        said: Any = message.string
        forms = [said] if isinstance(said, str) else list(said)
        assert forms and all(forms), f"{lang}: {msgid!r} untranslated"
        for form in forms:
            # a plural's {n} may be left out of a singular form ("la carte")
            wanted = placeholders(sources[-1]) - ({"n"} if len(forms) > 1 else set())
            assert wanted <= placeholders(form) <= placeholders(sources[-1]), (lang, msgid, form)


def test_the_language_is_the_asked_then_the_remembered_then_the_browsers_then_english() -> None:
    assert negotiate("it", "de", "fr") == "it"
    assert negotiate(None, "de", "fr") == "de"
    assert negotiate("klingon", None, "es-ES,es;q=0.9,en;q=0.5") == "es"
    assert negotiate(None, None, "ja, de-AT;q=0.8, fr;q=0.9") == "fr"
    assert negotiate(None, None, "ja") == "en"
    assert negotiate() == "en"


def test_plurals_follow_each_languages_rules() -> None:
    # French counts 0 and 1 as singular, the others only 1
    fr, de = translator("fr"), translator("de")
    card = ("The {n} card is shuffled.", "The {n} cards are shuffled.")
    assert fr.ngettext(*card, 0) == "La 0 carte est mélangée."
    assert de.ngettext(*card, 0) == "Die 0 Karten werden gemischt."
    assert de.ngettext(*card, 1) == "Die 1 Karte wird gemischt."


def test_numbers_and_dates_are_written_the_languages_way() -> None:
    import datetime

    assert translator("de").number(1234.5) == "1.234,5"
    assert translator("fr").number(1234.5) == "1\u202f234,5"
    assert "dic" in translator("it").date(datetime.date(2026, 12, 3))


def test_the_pseudo_locale_is_accented_longer_and_keeps_placeholders() -> None:
    said = pseudo("Seat {seat} guesses {value}.")
    assert "{seat}" in said and "{value}" in said
    assert len(said) >= 1.4 * len("Seat {seat} guesses {value}.")
    assert "Seat" not in said
    assert translator("xx").gettext("Seat {seat} guesses {value}.", seat=2, value=9) != (
        "Seat 2 guesses 9."
    )


@pytest.mark.parametrize("lang", ["fr", "de", "it", "es"])
def test_a_clock_event_names_the_bot_level_in_the_readers_language(lang: str) -> None:
    from campfire.kernel.events import Event
    from campfire.server.tables.live import CLOCK_EVENT, clock_text

    tr = translator(lang)
    event = Event(CLOCK_EVENT, {"seat": 1, "level": "easy"})
    text = clock_text(event, 0, lang)
    assert tr.pgettext("level", "easy") != "easy"
    assert tr.pgettext("level", "easy") in text
    # an English reader reads the level's name as it is
    assert "a easy bot played the turn" in clock_text(event, 0, "en")


@pytest.mark.parametrize("lang", ["fr", "de", "it", "es"])
def test_the_page_scripts_receive_the_bot_levels_words(lang: str) -> None:
    """The lobby and the table show a seat's level with `pgettext("level", name)`."""
    import orjson

    from campfire.i18n import LEVELS
    from campfire.i18n.scripts import CONTEXT, script_catalogue

    messages = orjson.loads(script_catalogue(lang))["messages"]
    for level in LEVELS:
        assert messages[f"level{CONTEXT}{level}"] == translator(lang).level(level)
