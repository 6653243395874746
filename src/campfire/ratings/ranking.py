"""The finishing ranking of a finished game: who came first, second, ... (ties share a place).

Ratings learn from the whole order, not just who won, so each game states how the others are
placed (docs/accounts.md, "How ratings are computed"):

- Pow Wow: the winners first (several winners tie, P10); then the players still in but not
  winning (only with `end_after_eliminations`: fewer buzzards is better); then the players who
  went out, the later out the better (the last one out held on longest).
- Waka Tanka: the winner first; then the others by apprentice tokens, more is better (four win
  at once, W5), then by the cards in hand, fewer is better (an empty hand wins, W5); equal on
  both, they share the place.

Whoever left the game or lost the seat to the clock (`left`) ranks last, whatever the board
says, sharing the last place with anyone else who left.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

#: a seat's sort key: smaller is better
Key = tuple[float, ...]


def places(keys: Sequence[Key]) -> list[int]:
    """Standard competition ranking (1, 2, 2, 4) of the seats by their keys, smaller first."""
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def finishing_ranks(state: Any, left: Collection[int] = ()) -> list[int]:
    """Each seat's place (1 = first) in the finished game `state`; `left` seats rank last."""
    if not state.is_terminal:
        raise ValueError("only a finished game has a finishing ranking")
    keyed = _KEYS.get(state.game.name)
    if keyed is None:
        raise ValueError(f"no finishing ranking is defined for {state.game.name!r}")
    keys = keyed(state)
    gone = set(left)
    return places([(9.0, 0.0, 0.0) if seat in gone else keys[seat] for seat in range(len(keys))])


def _powwow(state: Any) -> list[Key]:
    winners = set(state.winners())
    out_order = {seat: index for index, seat in enumerate(state.out)}
    keys: list[Key] = []
    for seat in range(state.players):
        if seat in winners:
            keys.append((0.0, 0.0, 0.0))
        elif seat not in out_order:
            keys.append((1.0, float(state.buzzards[seat]), 0.0))
        else:  # went out: later is better
            keys.append((2.0, -float(out_order[seat]), 0.0))
    return keys


def _wakatanka(state: Any) -> list[Key]:
    winners = set(state.winners())
    return [
        (0.0, 0.0, 0.0)
        if seat in winners
        else (1.0, -float(state.tokens[seat]), float(state.hand_size[seat]))
        for seat in range(state.players)
    ]


_KEYS: dict[str, Callable[[Any], list[Key]]] = {"powwow": _powwow, "wakatanka": _wakatanka}
