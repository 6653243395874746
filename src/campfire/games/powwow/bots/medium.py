"""Medium: the exact distribution of the round's total, then thresholds (`Style`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from campfire.games.powwow.actions import AGREE, DISPUTE, REVERSE, Action, Guess
from campfire.games.powwow.bots.legal import clamp, next_seat, pick_legal
from campfire.games.powwow.feathers import GUESS_MAX
from campfire.games.powwow.odds import Odds, distribution, seat_odds, unseen_by
from campfire.games.powwow.view import PowwowView


@dataclass(frozen=True, slots=True)
class Style:
    """A threshold player: every decision compares exact probabilities with these numbers."""

    dispute_below: float = 0.5  # dispute when the standing guess holds with less than this
    raise_to: float = 0.95  # raise to the highest guess that holds with at least this
    open_at: float = 0.95  # the opening guess holds with at least this
    agree_at: float = 0.65  # agree when the guess holds this well but a raise would not
    reverse_from: float = 0.3  # reverse rather than dispute when the guess holds at least this
    extra_at: float = 0.8  # give the next player an extra feather when the raise still holds


MEDIUM = Style()


def threshold_action(
    view: PowwowView,
    odds: Odds,
    style: Style = MEDIUM,
    after_extra: Callable[[], Odds | None] | None = None,
) -> Action:
    """The medium decision, from the seat's odds (which may carry a belief about own feathers).

    `after_extra` gives the odds once one more unseen feather joins the round (the extra
    feather a tomahawk would hand out); by default they are computed from the view.
    """
    me = view.seat
    assert me is not None
    guess = view.guess
    ready = view.options.tomahawks and view.tomahawks[me]
    if guess is None:
        value = clamp(odds.highest_holding(style.open_at))
        return _with_extra(view, value, style, after_extra) if ready else Guess(value)
    holds = odds.at_least(guess)
    if holds < style.dispute_below:
        if ready and holds >= style.reverse_from and view.players > 2:
            return REVERSE
        return DISPUTE
    if guess >= GUESS_MAX:
        return DISPUTE
    target = odds.highest_holding(style.raise_to)
    if target <= guess:
        if ready and not view.agreed and holds >= style.agree_at:
            return AGREE
        return Guess(guess + 1)
    value = clamp(target)
    return _with_extra(view, value, style, after_extra) if ready else Guess(value)


def odds_after_extra(view: PowwowView) -> Odds | None:
    """The seat's odds once one more feather it cannot see joins the round."""
    seen, hidden, unseen = unseen_by(view)
    if sum(unseen.values()) <= hidden:
        return None
    return distribution(seen, hidden + 1, unseen, view.used)


def _with_extra(
    view: PowwowView, value: int, style: Style, after_extra: Callable[[], Odds | None] | None
) -> Guess:
    """Guess `value`, throwing the tomahawk at the next player if the guess survives it."""
    me = view.seat
    assert me is not None
    nxt = next_seat(view, me, view.direction)
    if nxt == me or len(view.feathers[nxt]) != 1 or len(view.feathers[me]) != 1:
        return Guess(value)  # with two unseen feathers already, no more uncertainty is wanted
    after = after_extra() if after_extra is not None else odds_after_extra(view)
    if after is not None and after.at_least(value) >= style.extra_at:
        return Guess(value, nxt)
    return Guess(value)


class MediumBot:
    """Exact odds from the seat view, then guess or dispute by thresholds (see `Style`)."""

    def __init__(self, seed: int | None = None, style: Style = MEDIUM) -> None:
        self.rng = random.Random(seed)
        self.style = style

    def choose(self, view: PowwowView, legal: Sequence[Action]) -> Action:
        return pick_legal(threshold_action(view, seat_odds(view), self.style), legal)
