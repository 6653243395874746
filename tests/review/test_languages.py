"""A review told in Italian and Spanish: every line of the English rendering has its own
translation (no English sentence left), the judges' notes included; the JSON contract keeps its
English notes, and the web's document carries each note as a message to tell in any language."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

from campfire.i18n import message_text, translator
from campfire.kernel import Record
from campfire.kernel.errors import Refusal, percent
from campfire.review import Review, localized, review_record
from campfire.review.text import lines

POWWOW = Path(__file__).parent.parent / "data" / "records" / "powwow-basic-4p.json"
#: words the same in English and these languages: names, not sentences
NAMES = {"Pow", "Wow", "bot", "json", "powwow", "basic", "total"}


@pytest.fixture(scope="module")
def review() -> Review:
    return review_record(Record.load(POWWOW))


def words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]{3,}", text))


@pytest.mark.parametrize("lang", ["it", "es"])
def test_every_line_of_the_review_is_translated(review: Review, lang: str) -> None:
    english = lines(review, title="Pow Wow")
    told = lines(review, title="Pow Wow", tr=translator(lang))
    assert len(told) == len(english)
    notes = [d.note for d in review.decisions if d.best != d.played]
    assert notes  # the game has moves that lost something, with their notes
    for note in notes:
        assert str(note) in "\n".join(english)
        assert str(note) not in "\n".join(told)
    for en, other in zip(english[1:], told[1:], strict=True):
        assert other != en
        left = (words(en) & words(other)) - NAMES
        assert not left, (en, other)  # no English word is left in the line


def test_the_review_figures_are_written_in_the_locale(review: Review) -> None:
    italian = "\n".join(lines(review, tr=translator("it")))
    figures = review.summary(0)
    accuracy = translator("it").percent(figures["accuracy"] / 100, 1)
    assert f"Posto 0: precisione {accuracy}" in italian
    assert "," in accuracy or figures["accuracy"] == 100.0  # the decimal comma


def test_the_json_keeps_english_notes_and_the_web_document_tells_them(review: Review) -> None:
    plain = review.to_json()
    assert set(plain["decisions"][0]) == {
        "index",
        "seat",
        "played",
        "best",
        "loss",
        "label",
        "note",
    }
    full = review.to_full_json()
    spanish = localized(full, "es")
    assert localized(full, "en") == full
    for row, told, decision in zip(
        full["decisions"], spanish["decisions"], review.decisions, strict=True
    ):
        assert row["note"] == str(decision.note)  # English as it was
        assert told["note"] == message_text(row["note_message"], translator("es"))
        assert told["note"] != row["note"]
        assert {k: v for k, v in told.items() if k != "note"} == {
            k: v for k, v in row.items() if k != "note"
        }
    # a review kept before notes carried their message stays as it was
    old = {
        **full,
        "decisions": [
            {k: v for k, v in r.items() if k != "note_message"} for r in full["decisions"]
        ],
    }
    assert localized(old, "es") == old


def test_a_waka_tanka_note_names_the_animals_in_the_language() -> None:
    note = Refusal(
        "{first}; {rest}",
        first=Refusal(
            "the others believe a {tile} from you {chance}", tile="eagle", chance=percent(0.7)
        ),
        rest=Refusal(
            "share of the win: {played} {played_value}",
            played=Refusal("{card} on {tile}", card="bear", tile="eagle"),
            played_value=percent(0.11),
        ),
    )
    assert note == "the others believe a eagle from you 70%; share of the win: bear on eagle 11%"
    kept = pickle.loads(pickle.dumps(note))  # as a worker process or Ray sends it back
    assert kept == note and kept.to_json() == note.to_json()
    spanish = message_text(note.to_json(), translator("es"))
    assert spanish == (
        "los demás te creen un águila en un 70\xa0%; parte de la victoria: oso sobre águila 11\xa0%"
    )
