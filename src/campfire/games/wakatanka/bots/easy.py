"""Easy: plays a true card when it has one, bluffs with mice, calls on a hunch."""

from __future__ import annotations

import random
from collections.abc import Sequence

from campfire.games.wakatanka.actions import ACCEPT, CALL, Action, Play, Spell
from campfire.games.wakatanka.bots.legal import pick_legal
from campfire.games.wakatanka.cards import TILES
from campfire.games.wakatanka.view import WakatankaView


class EasyBot:
    """Plays a true card when it has one, bluffs with a mouse when it must, calls on a hunch.

    Human habits and slips: it remembers only its own hand, casts spells on tall stacks on a
    whim, and now and then lets a player who played their last card win.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: WakatankaView, legal: Sequence[Action]) -> Action:
        return easy_action(view, legal, self.rng)


def easy_action(view: WakatankaView, legal: Sequence[Action], rng: random.Random) -> Action:
    """Easy's choice with the coin `rng`: the expert plays seats it reads as easy by it."""
    hand = view.hand or ()
    if view.last_card:
        return ACCEPT if rng.random() < 0.1 else CALL
    if view.last_play is not None:
        _, tile = view.last_play
        if hand.count(tile) >= 3 or rng.random() < 0.1:
            return CALL
    tall = [t for t in TILES if len(view.stacks[t]) >= 3]
    if tall and rng.random() < 0.3:
        return pick_legal(Spell(rng.choice(tall)), legal)
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return rng.choice(list(legal))
    true = [a for a in plays if a.card == a.tile]
    if true:
        return rng.choice(true)
    mice = [a for a in plays if a.card == "mouse"]
    return rng.choice(mice or plays)
