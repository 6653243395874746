"""A review as plain lines, for the terminal (`campfire review`, and `review` after a game), in
the reader's language: the judges' notes are messages with their values (`Decision.message`),
told here through the catalogue; labels, moves and statistics are named the same way."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from campfire.i18n import N_, Translator, refusal_text, translator
from campfire.review.reviewer import Review

#: the labels of a move, in words (the JSON keeps the English names)
LABEL_WORDS = {
    "good": N_("good"),
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
}
#: the judges' statistics, in words (the same words as the web review's)
STATISTICS = {
    "disputes_right": N_("disputes right"),
    "disputes_wrong": N_("disputes wrong"),
    "guesses_held": N_("guesses that held"),
    "guesses_failed": N_("guesses that failed"),
    "bluffs_played": N_("bluffs played"),
    "bluffs_caught": N_("bluffs caught"),
    "calls_right": N_("calls right"),
    "calls_wrong": N_("calls wrong"),
    "spells_cast": N_("spells cast"),
    "spells_won": N_("spells won"),
    "average_loss": N_("average loss"),
}


def action_text(action: Mapping[str, Any], tr: Translator | None = None) -> str:
    """An action as the record writes it, in words: `guess 25`, `mouse on owl`, `dispute`."""
    tr = translator("en") if tr is None else tr
    kind = action.get("action")
    if kind == "guess" and "value" in action:
        if action.get("extra_feather_to") is None:
            return tr.gettext("guess {value}", value=action["value"])
        return tr.gettext(
            "guess {value} (extra feather to seat {seat})",
            value=action["value"],
            seat=action["extra_feather_to"],
        )
    if kind == "play" and "card" in action and "tile" in action:
        return tr.gettext(
            "{card} on {tile}",
            card=tr.pgettext("animal", str(action["card"])),
            tile=tr.pgettext("animal", str(action["tile"])),
        )
    if kind == "spell" and "tile" in action:
        return tr.gettext("spell on {tile}", tile=tr.pgettext("animal", str(action["tile"])))
    if kind in ("dispute", "agree", "reverse", "call", "accept") and len(action) == 1:
        return tr.gettext(kind)
    rest = [f"{k}={v}" if len(action) > 2 else str(v) for k, v in action.items() if k != "action"]
    return " ".join([str(action.get("action", "?")), *rest])


def _statistic(value: Any, tr: Translator) -> str:
    if isinstance(value, float):
        return tr.decimal(value, 4 if abs(value) < 1 else 1)
    if isinstance(value, int) and not isinstance(value, bool):
        return tr.number(value)
    return str(value)


def lines(
    review: Review,
    names: Sequence[str] | None = None,
    title: str = "",
    tr: Translator | None = None,
) -> list[str]:
    """Each seat's figures and statistics, then its moves with their labels and, where a move
    lost something, the better move and the odds or read that decided it."""
    tr = translator("en") if tr is None else tr
    _ = tr.gettext
    out = [title] if title else []
    for seat in review.seats:
        name = names[seat] if names is not None else _("Seat {seat}", seat=seat)
        figures = review.summary(seat)
        said = _(
            "{name}: accuracy {accuracy}, {mistakes}, {blunders}",
            name=_("{name} (won)", name=name) if seat in review.winners else name,
            accuracy=tr.percent(figures["accuracy"] / 100, 1),
            mistakes=tr.ngettext("{n} mistake", "{n} mistakes", figures["mistakes"]),
            blunders=tr.ngettext("{n} blunder", "{n} blunders", figures["blunders"]),
        )
        out.append(said)
        stats = review.statistics.get(seat, {})
        if stats:
            out.append(
                "  "
                + ", ".join(
                    f"{_(STATISTICS[k]) if k in STATISTICS else k.replace('_', ' ')}"
                    f" {_statistic(v, tr)}"
                    for k, v in stats.items()
                )
            )
        for d in review.of_seat(seat):
            label = _(LABEL_WORDS[d.label]) if d.label in LABEL_WORDS else d.label
            line = f"  #{d.index:<4} {action_text(d.played, tr):<28} {label}"
            if d.best != d.played:
                line += _(
                    " (loss {loss}): better {move}",
                    loss=tr.decimal(d.loss, 2),
                    move=action_text(d.best, tr),
                )
            out.append(line)
            if d.best != d.played:
                out.append(f"        {refusal_text(d.note, tr)}")
    return out
