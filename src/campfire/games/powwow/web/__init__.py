"""Pow Wow at the browser table: compact controls, the count of the last round, static files.

See `campfire.server.tables.webgame` for what each function is for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from campfire.games.powwow.actions import Action, Agree, Dispute, Guess, Reverse
from campfire.games.powwow.feathers import count
from campfire.games.powwow.options import PowwowOptions
from campfire.games.powwow.view import PowwowView

OPTIONS = PowwowOptions


def controls(view: PowwowView, legal: Sequence[Action]) -> dict[str, Any]:
    """Guess range, extra-feather targets and which tomahawk moves are open."""
    low: int | None = None
    high: int | None = None
    targets: set[int] = set()
    flags = {"dispute": False, "agree": False, "reverse": False}
    for action in legal:
        if isinstance(action, Guess):
            if action.extra_feather_to is None:
                low = action.value if low is None else min(low, action.value)
                high = action.value if high is None else max(high, action.value)
            else:
                targets.add(action.extra_feather_to)
        elif isinstance(action, Dispute):
            flags["dispute"] = True
        elif isinstance(action, Agree):
            flags["agree"] = True
        elif isinstance(action, Reverse):
            flags["reverse"] = True
    guess = None if low is None or high is None else {"min": low, "max": high}
    return {"guess": guess, "extra_feather_to": sorted(targets), **flags}


def expand(described: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every action `controls` describes: each guess plain and with each extra-feather target."""
    out: list[dict[str, Any]] = []
    guess = described["guess"]
    if guess is not None:
        values = range(guess["min"], guess["max"] + 1)
        out.extend({"action": "guess", "value": v} for v in values)
        for target in described["extra_feather_to"]:
            out.extend({"action": "guess", "value": v, "extra_feather_to": target} for v in values)
    out.extend({"action": kind} for kind in ("dispute", "agree", "reverse") if described[kind])
    return out


def extras(view: PowwowView) -> dict[str, Any]:
    """The steps of the last round's count, for the reveal (all of it public by then)."""
    if not view.rounds:
        return {"last_round": None}
    last = view.rounds[-1]
    in_play = [f for worn in last.worn for f in worn]
    if last.turned_over is not None:
        in_play.append(last.turned_over)
    counted = count(in_play)
    return {
        "last_round": {
            "round": len(view.rounds),
            "removed": counted.removed,
            "doubled": counted.doubled,
            "green_sum": counted.green_sum,
            "others": counted.total - counted.green_sum,
            "max0": "max0" in in_play,
        }
    }


def pause_factor(kinds: set[str]) -> float:
    """Bots wait longer after a dispute, while the page shows the count."""
    return 4.0 if "total" in kinds else 1.0
