"""A bot of one's own, as a researcher would write it: the arena loads it by `module:factory`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any


class Cautious:
    """Pow Wow: dispute whenever it may, else take the lowest guess; any other game: the first
    legal action."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        names = [type(a).__name__ for a in legal]
        if "Dispute" in names:
            return legal[names.index("Dispute")]
        return legal[0]


NOT_A_FACTORY = 42
