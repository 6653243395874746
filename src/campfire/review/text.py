"""A review as plain lines, for the terminal (`campfire review`, and `review` after a game)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from campfire.review.reviewer import Review


def action_text(action: Mapping[str, Any]) -> str:
    """An action as the record writes it, in words: `guess 25`, `play tile=owl card=mouse`."""
    rest = [f"{k}={v}" if len(action) > 2 else str(v) for k, v in action.items() if k != "action"]
    return " ".join([str(action.get("action", "?")), *rest])


def lines(review: Review, names: Sequence[str] | None = None, title: str = "") -> list[str]:
    """Each seat's figures and statistics, then its moves with their labels and, where a move
    lost something, the better move and the odds or read that decided it."""
    out = [title] if title else []
    for seat in review.seats:
        name = names[seat] if names is not None else f"Seat {seat}"
        figures = review.summary(seat)
        won = " (won)" if seat in review.winners else ""
        out.append(
            f"{name}{won}: accuracy {figures['accuracy']:.1f}%, "
            f"{figures['mistakes']} mistakes, {figures['blunders']} blunders"
        )
        stats = review.statistics.get(seat, {})
        if stats:
            out.append("  " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in stats.items()))
        for d in review.of_seat(seat):
            line = f"  #{d.index:<4} {action_text(d.played):<28} {d.label}"
            if d.best != d.played:
                line += f" (loss {d.loss:.2f}): better {action_text(d.best)}"
            out.append(line)
            if d.best != d.played:
                out.append(f"        {d.note}")
    return out
