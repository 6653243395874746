"""The coach: the blind odds of the round's total beside what the others' play says.

`odds.report` is exact but blind to the bidding: every other player sees this seat's feathers
and guessed or disputed with them in view. `coach(view)` adds the expert's reading of that
(`bots.mixed_belief`, each other seat read as a mixture of medium, easy and random players): the
distribution of the seat's own feathers and of the total given what the bidding says, shown
beside the blind one. It depends on the view alone, so it may be shown to the seat it belongs to
and to no one else. Everything it returns is JSON-ready.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campfire.games.powwow.bots import PRIOR, mixed_belief
from campfire.games.powwow.odds import distribution, report, unseen_by
from campfire.games.powwow.view import PowwowView
from campfire.i18n import Translator


def read_odds_weights(view: PowwowView) -> dict[tuple[str, ...], float]:
    """P(own feathers | this round's bidding), every other seat read by the prior mixture."""
    return mixed_belief(view, lambda seat: dict(PRIOR))


def coach(view: PowwowView, around: int = 3, guess: int | None = None) -> dict[str, Any]:
    """The blind odds (`odds.report`) and the read ones, for `view.seat`.

    `guess`: centre the P(total ≥ g) rows on this guess instead of the standing one (the
    terminal's `odds 25`). ValueError for a spectator's view or when no round is in progress.
    """
    data = report(view, around)
    own = read_odds_weights(view)
    seen, hidden, unseen = unseen_by(view)
    read = distribution(seen, hidden, unseen, view.used, own)
    blind = {row["total"]: row["p"] for row in data["distribution"]}
    centre = guess if guess is not None else data["at_least"][around]["guess"]
    if guess is not None:
        data = {**data, "at_least": _rows(view, centre, around)}
    data["read"] = {
        "mean": round(read.mean(), 3),
        "own_feathers": [
            {"feathers": list(feathers), "p": round(p, 6)}
            for feathers, p in sorted(own.items(), key=lambda item: (-item[1], item[0]))[:5]
        ],
        "distribution": [
            {"total": t, "p": round(p, 6), "blind": round(blind.get(t, 0.0), 6)}
            for t, p in read.items()
        ],
        "at_least": [
            {"guess": g, "p": round(read.at_least(g), 6)}
            for g in range(centre - around, centre + around + 1)
        ],
    }
    data["asked"] = guess
    return data


def _rows(view: PowwowView, centre: int, around: int) -> list[dict[str, Any]]:
    from campfire.games.powwow.odds import seat_odds

    odds = seat_odds(view)
    return [
        {"guess": g, "p": round(odds.at_least(g), 6), "exact": str(odds.exact_at_least(g))}
        for g in range(centre - around, centre + around + 1)
    ]


def render(data: Mapping[str, Any], tr: Translator | None = None) -> list[Any]:
    """The coach's report as lines for a Rich console: the blind odds, then the read beside,
    in `tr`'s language (English by default)."""
    from rich.table import Table
    from rich.text import Text

    from campfire.games.powwow.narration import feather
    from campfire.games.powwow.odds import render as render_blind
    from campfire.i18n import translator

    tr = translator("en") if tr is None else tr
    _ = tr.gettext
    lines = render_blind(data, tr)
    read = data.get("read")
    if read is None:
        return lines
    lines.append(
        Text(
            _(
                "What the bidding says about your own feathers: expected total {read}"
                " (blind {blind}).",
                read=tr.decimal(read["mean"], 2),
                blind=tr.decimal(data["mean"], 2),
            ),
            style="bold",
        )
    )
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column(_("guess"), justify="right")
    table.add_column(_("blind"), justify="right")
    table.add_column(_("read"), justify="right")
    for blind, row in zip(data["at_least"], read["at_least"], strict=True):
        mark = _(" ← standing") if row["guess"] == data["guess"] else ""
        mark = _(" ← asked") if row["guess"] == data.get("asked") else mark
        table.add_row(f"{row['guess']}{mark}", tr.percent(blind["p"], 1), tr.percent(row["p"], 1))
    lines.append(table)
    none = tr.pgettext("feathers", "none")
    likely = ", ".join(
        f"{'+'.join(feather(f, tr) for f in item['feathers']) or none} {tr.percent(item['p'])}"
        for item in read["own_feathers"][:3]
    )
    lines.append(Text(_("Your feathers, most likely first: {likely}.", likely=likely)))
    return lines


__all__ = ["coach", "read_odds_weights", "render"]
