"""Easy: counts what it sees, adds a typical feather for its own, and plays by feel."""

from __future__ import annotations

import random
from collections.abc import Sequence

from campfire.games.powwow.actions import AGREE, DISPUTE, REVERSE, Action, Guess
from campfire.games.powwow.bots.legal import clamp, pick_legal
from campfire.games.powwow.feathers import count
from campfire.games.powwow.view import PowwowView


class EasyBot:
    """Counts what it sees, adds a typical feather for its own, and plays by feel.

    Its mistakes are a person's: the `?` and the black feathers' effects on its own head are
    ignored, the estimate wobbles, raises are small and disputes come late or early.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PowwowView, legal: Sequence[Action]) -> Action:
        return easy_action(view, legal, self.rng)


def easy_action(view: PowwowView, legal: Sequence[Action], rng: random.Random) -> Action:
    """Easy's choice, its feel drawn from `rng` (the expert's search plays a seat read as easy
    by it)."""
    me = view.seat
    assert me is not None
    seen = [f for s, w in enumerate(view.feathers) if s != me for f in w if f is not None]
    estimate = count(seen).total + 3 * len(view.feathers[me]) + rng.gauss(0, 4)
    guess = view.guess
    ready = view.options.tomahawks and view.tomahawks[me]
    if guess is None:
        return pick_legal(Guess(clamp(round(estimate) - rng.randint(2, 8))), legal)
    margin = guess - estimate
    if ready and abs(margin) < 4 and rng.random() < 0.4:
        choice = AGREE if not view.agreed and margin < 0 and rng.random() < 0.5 else REVERSE
        return pick_legal(choice, legal)
    if margin > rng.uniform(-1, 3):
        return DISPUTE
    value = clamp(guess + rng.choice((1, 1, 1, 2, 2, 3, 5)))
    if ready and rng.random() < 0.15:
        targets = [s for s in view.active if s != me and len(view.feathers[s]) == 1]
        if targets:
            return pick_legal(Guess(value, rng.choice(targets)), legal)
    return pick_legal(Guess(value), legal)
