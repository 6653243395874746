"""The post-game review: every player move of a finished record judged by the top level.

The reviewer (`review_record`) walks a record through the kernel API. At each player move it
hands the game's judge only what that seat could see then (its view and the legal actions), and
the judge answers with the move the top level would choose and what both moves are worth to the
seat: its expected share of the win, in [0, 1]. The **loss** of a move is how much of that share
it gave up against the best move; a forced move (one legal action) loses nothing.

Each game provides its judge in `campfire.games.<game>.review`, wired by the game's package
(`judge()`), never by the rules module. See docs/bots.md for how each judge values a move.
"""

from typing import Any

from campfire.review.reviewer import (
    LABELS,
    THRESHOLDS,
    Decision,
    Judge,
    Review,
    SeatJudge,
    Verdict,
    accuracy,
    joined,
    judge_for,
    label,
    review_document,
    review_record,
)

__all__ = [
    "LABELS",
    "THRESHOLDS",
    "Decision",
    "Judge",
    "Review",
    "SeatJudge",
    "Verdict",
    "accuracy",
    "joined",
    "judge_for",
    "label",
    "localized",
    "review_document",
    "review_record",
]


def localized(document: dict[str, Any], lang: str) -> dict[str, Any]:
    """A review document (`Review.to_full_json`) with each decision's `note` told in `lang`
    (from its `note_message`; a document kept before notes carried one stays in English)."""
    if lang == "en":
        return document
    from campfire.i18n import message_text, translator

    tr = translator(lang)
    decisions = []
    for row in document.get("decisions", []):
        message = row.get("note_message")
        decisions.append({**row, "note": message_text(message, tr)} if message else row)
    return {**document, "decisions": decisions}
