"""The terminal's `review` after a game, in the game's language: the same review the English
table shows, every line of it told in the reader's language."""

from __future__ import annotations

import io
import random
from pathlib import Path

from rich.console import Console

from campfire.i18n import translator
from campfire.kernel import Record
from campfire.review import review_record
from campfire.review.text import lines
from campfire.terminal import Session

POWWOW = Path(__file__).parent.parent / "data" / "records" / "powwow-basic-4p.json"


def finished_session(lang: str, typed: list[str]) -> tuple[Session, io.StringIO]:
    """The example game, finished, at a terminal where seat 0 played: `typed` at its prompt."""
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, highlight=False, soft_wrap=True)
    queue = list(typed)

    def read_line(prompt: str) -> str | None:
        return queue.pop(0) if queue else None

    state = Record.load(POWWOW).replay()
    session = Session(state, {0}, {}, random.Random(1), console, read_line, True, lang=lang)
    return session, out


def test_review_after_the_game_speaks_german() -> None:
    tr = translator("de")
    word = tr.pgettext("command", "review")
    assert word == "auswerten"  # the language's own word for the command
    session, out = finished_session("de", [f"{word} 2", tr.pgettext("command", "quit")])
    assert session.after_the_game() == 0
    text = out.getvalue()
    review = review_record(Record.load(POWWOW), [2])
    english = lines(review)
    german = lines(review, tr=tr)
    assert german[0].startswith("Platz 2") and "Genauigkeit" in german[0]
    # the first line names the seat as the table does; the figures are the same
    assert german[0].split(": ", 1)[1] in text and "accuracy" not in text
    for en, de in zip(english[1:], german[1:], strict=True):
        assert de in text
        assert en not in text  # the English line is nowhere
    assert any(str(d.note) in "\n".join(english) for d in review.decisions if d.best != d.played)
