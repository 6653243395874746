"""Positions built on purpose: stacks and decks arranged so a ruling can be tested exactly."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from campfire.games.powwow import FEATHERS, PowwowState
from campfire.games.powwow import GAME as POWWOW
from campfire.games.wakatanka import GAME as WAKATANKA
from campfire.games.wakatanka import TILES, WakatankaState, deck
from campfire.kernel import Pick, Shuffle

_BLACK_LAST = {"x2": 1, "max0": 1, "zero": 1, "?": 1}


def order_with_top(top: Sequence[str], items: Iterable[str] = FEATHERS) -> tuple[str, ...]:
    """A whole shuffle order: `top` first, then the rest with the black feathers last."""
    rest = Counter(items)
    rest.subtract(top)
    assert all(n >= 0 for n in rest.values()), f"{top} is not part of the items"
    tail = sorted(rest.elements(), key=lambda f: (_BLACK_LAST.get(f, 0), f))
    return (*top, *tail)


def powwow(players: int = 4, top: Sequence[str] = (), **options: Any) -> PowwowState:
    """A new Pow Wow game whose first shuffle puts `top` on top of the stack."""
    state = POWWOW.new_state(players, options)
    state.apply(Shuffle(order_with_top(top)))
    return state


def deal_order(hands: Sequence[Sequence[str]], first_player: int = 0) -> tuple[str, ...]:
    """The deck order (top first) that deals exactly `hands`, one card at a time."""
    n = len(hands)
    queues = [list(h) for h in hands]
    order = []
    seat = first_player
    while any(queues):
        assert queues[seat], "hands must differ in size by at most one, in deal order"
        order.append(queues[seat].pop(0))
        seat = (seat + 1) % n
    assert Counter(order) == Counter(deck(n)), "hands must use exactly the deck"
    return tuple(order)


def wakatanka(
    hands: Sequence[Sequence[str]], marker: str = "coyote", first_player: int = 0
) -> WakatankaState:
    """A Waka Tanka game dealt `hands`, the marker on `marker`."""
    state = WAKATANKA.new_state(len(hands), {"first_player": first_player})
    state.apply(Shuffle(deal_order(hands, first_player)))
    state.apply(Pick("marker", marker))
    return state


def split_deck(
    players: int, wanted: Sequence[Sequence[str]], first_player: int = 0
) -> list[list[str]]:
    """Hands for `players` that start with `wanted[s]`, filled up from the rest of the deck."""
    rest = Counter(deck(players))
    for hand in wanted:
        rest.subtract(hand)
    assert all(n >= 0 for n in rest.values())
    pool = sorted(rest.elements())
    total = len(deck(players))
    sizes = [
        total // players + (1 if (s - first_player) % players < total % players else 0)
        for s in range(players)
    ]
    hands = [list(wanted[s]) if s < len(wanted) else [] for s in range(players)]
    for s in range(players):
        while len(hands[s]) < sizes[s]:
            hands[s].append(pool.pop())
    return hands


__all__ = ["TILES", "deal_order", "order_with_top", "powwow", "split_deck", "wakatanka"]
