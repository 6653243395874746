"""The bot protocol: a seat view and the legal actions in, one action out.

A bot never receives the state, only the view of its seat, so it cannot cheat by construction.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol


class Bot(Protocol):
    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        """One of `legal`, chosen from what `view` shows."""
        ...


#: builds a bot of one level from a seed (None: unseeded)
BotFactory = Callable[[int | None], Bot]


class RandomBot:
    """Uniform over the legal actions: the baseline every other level must beat."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        return legal[self.rng.randrange(len(legal))]
