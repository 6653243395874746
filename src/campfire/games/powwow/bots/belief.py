"""What the others' play this round says about this seat's own feathers.

The others see this seat's feathers, so each of their turns is evidence: hard reads every
other player as a threshold player like medium, with thresholds it is unsure of (`likelihood`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from campfire.games.powwow.actions import Action, Agree, Dispute, Guess, Reverse
from campfire.games.powwow.bots.medium import MEDIUM, threshold_action
from campfire.games.powwow.odds import Odds, draws, seat_odds, unseen_by
from campfire.games.powwow.view import PowwowView

#: how the others are modelled: threshold players like medium, whose thresholds hard is unsure of
MODEL = MEDIUM
#: the share of the likelihood that trusts the model's exact choice; the rest is a softer reading
#: (a guess says its maker thinks the total likely reaches it, a dispute that it likely does not)
SHARP = 0.85
FLOOR = 1e-3


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


def _raise_cdf(p: float) -> float:
    """P(a threshold player's raise threshold is at most p), thresholds spread around 0.9."""
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    return 1 / (1 + math.exp(-(_logit(p) - 2.2) / 0.8))


def _dispute_chance(holds: float) -> float:
    """P(a threshold player disputes a guess they think holds with `holds`)."""
    return 1 / (1 + math.exp((holds - 0.5) / 0.08))


def soft_likelihood(view: PowwowView, odds: Odds, action: Action) -> float:
    """How likely a threshold player with these odds and unknown thresholds takes `action`."""
    guess = view.guess
    holds = 1.0 if guess is None else odds.at_least(guess)
    if isinstance(action, Dispute):
        return _dispute_chance(holds)
    if isinstance(action, Agree):
        assert guess is not None
        return 0.5 * (1 - _dispute_chance(holds)) * (1 - _raise_cdf(odds.at_least(guess + 1)))
    if isinstance(action, Reverse):
        return 0.3 * math.exp(-(((holds - 0.45) / 0.2) ** 2))
    assert isinstance(action, Guess)
    stay = 1.0 if guess is None else 1 - _dispute_chance(holds)
    v = action.value
    if guess is not None and v == guess + 1:
        value = 1 - _raise_cdf(odds.at_least(v + 1))
    else:
        value = _raise_cdf(odds.at_least(v)) - _raise_cdf(odds.at_least(v + 1))
    return stay * value


def likelihood(view: PowwowView, odds: Odds, action: Action) -> float:
    """P(action) under the model of the others: mostly medium exactly, partly a soft reading."""
    exact = threshold_action(view, odds, MODEL) == action
    return FLOOR + SHARP * exact + (1 - SHARP) * soft_likelihood(view, odds, action)


@dataclass(frozen=True, slots=True)
class Moment:
    """The public situation before one turn of this round (rebuilt from the view's turns)."""

    index: int
    seat: int
    action: Action
    guess: int | None
    owner: int | None
    agreed: bool
    direction: int
    ready: tuple[bool, ...]
    extras: tuple[int, ...]  # feathers each seat wore then

    def seen_from(
        self,
        view: PowwowView,
        worn: Sequence[Sequence[str | None]],
        turns: tuple[tuple[int, Action], ...],
    ) -> PowwowView:
        """The view this turn's player had: `worn` gives every seat's feathers as they are
        now (the first `extras[s]` of them were on by then); the player's own stay hidden."""
        feathers = tuple(
            (None,) * self.extras[s] if s == self.seat else tuple(worn[s][: self.extras[s]])
            for s in range(view.players)
        )
        return replace(
            view,
            seat=self.seat,
            to_move=self.seat,
            feathers=feathers,
            guess=self.guess,
            owner=self.owner,
            agreed=self.agreed,
            direction=self.direction,
            tomahawks=self.ready,
            turns=turns[: self.index],
        )


def round_moments(view: PowwowView) -> list[Moment]:
    """Each turn taken so far this round, with the situation its player faced."""
    guess: int | None = None
    owner: int | None = None
    agreed = False
    direction = 1
    ready = [True] * view.players
    worn = [0 if s in view.out else 1 for s in range(view.players)]
    out = []
    for i, (seat, action) in enumerate(view.turns):
        out.append(
            Moment(i, seat, action, guess, owner, agreed, direction, tuple(ready), tuple(worn))
        )
        if isinstance(action, Guess):
            guess, owner, agreed = action.value, seat, False
            if action.extra_feather_to is not None:
                ready[seat] = False
                worn[action.extra_feather_to] += 1
        elif isinstance(action, Agree):
            owner, agreed, ready[seat] = seat, True, False
        elif isinstance(action, Reverse):
            direction, ready[seat] = -direction, False
    return out


def worn_then(own: tuple[str, ...], worn: int) -> tuple[str, ...]:
    """The seat's feathers a past turn's player saw (the first `worn` it got), as a multiset:
    the others' readings depend on nothing else of them, so a belief scores each once."""
    return tuple(sorted(own[:worn]))


def ordered_own(unseen: Counter[str], hidden: int) -> list[tuple[tuple[str, ...], int]]:
    """The seat's own feathers in the order it got them, with their numbers of ways."""
    if hidden < 2:
        return draws(unseen, hidden)
    out: list[tuple[tuple[str, ...], int]] = []
    for first, n in unseen.items():
        if n <= 0:
            continue
        for second, m in unseen.items():
            ways = n * (m - 1 if second == first else m)
            if ways > 0:
                out.append(((first, second), ways))
    return out


def belief(view: PowwowView) -> dict[tuple[str, ...], float]:
    """P(own feathers | what the others did this round), by sorted feathers.

    The others see this seat's feathers: for each possible set, rebuild what every other player
    saw before each of their turns, and weigh the set by how likely they were to act as they did.
    """
    return posterior(view, lambda past, m: likelihood(past, seat_odds(past), m.action))


#: a past turn's likelihood by (turn index, the feathers of this seat its player saw)
Memo = dict[tuple[int, tuple[str, ...]], float]


def posterior(
    view: PowwowView,
    score: Callable[[PowwowView, Moment], float],
    memo: Memo | None = None,
) -> dict[tuple[str, ...], float]:
    """P(own feathers | the others' turns this round), each turn scored by `score(past, moment)`
    from the view its player had; `memo` may carry the scores of the turns before over from an
    earlier call with the same `score` in the same round."""
    me = view.seat
    assert me is not None
    _, hidden, unseen = unseen_by(view)
    moments = [m for m in round_moments(view) if m.seat != me]
    weights: dict[tuple[str, ...], float] = {}
    memo = {} if memo is None else memo
    for own, ways in ordered_own(unseen, hidden):
        weight = float(ways)
        worn = [own if s == me else view.feathers[s] for s in range(view.players)]
        for m in moments:
            seen = (m.index, worn_then(own, m.extras[me]))
            p = memo.get(seen)
            if p is None:
                p = memo[seen] = score(m.seen_from(view, worn, view.turns), m)
            weight *= p
        key = tuple(sorted(own))
        weights[key] = weights.get(key, 0.0) + weight
    total = sum(weights.values())
    return {own: w / total for own, w in weights.items()}
