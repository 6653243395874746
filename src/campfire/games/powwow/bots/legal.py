"""What every Pow Wow bot needs: a legal action in the end, and who plays next."""

from __future__ import annotations

from collections.abc import Sequence

from campfire.games.powwow.actions import DISPUTE, Action
from campfire.games.powwow.feathers import GUESS_MAX, GUESS_MIN
from campfire.games.powwow.view import PowwowView


def clamp(value: int) -> int:
    """A guess the rules allow: bots aim by odds, which run past the guesses' range."""
    return max(GUESS_MIN, min(GUESS_MAX, value))


def pick_legal(action: Action, legal: Sequence[Action]) -> Action:
    """`action` when the rules allow it, else the nearest safe thing (never an illegal move)."""
    if action in legal:
        return action
    if DISPUTE in legal:
        return DISPUTE
    return legal[0]


def next_seat(view: PowwowView, seat: int, direction: int, skip: int | None = None) -> int:
    """The next active player from `seat` in `direction` (as the rules step, P11)."""
    n = view.players
    nxt = seat
    while True:
        nxt = (nxt + direction) % n
        if nxt == seat:
            return seat
        if nxt not in view.out and nxt != skip:
            return nxt
