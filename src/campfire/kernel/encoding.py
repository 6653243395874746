"""Encodings: a game's moves as numbers and a seat view as a fixed-size vector.

Learning libraries (PettingZoo, Gymnasium, OpenSpiel) want a finite action space, chance outcomes
as small integers and observations of one fixed size. Each game provides an `Encoding` for a
player count and options (`Game.encoding`); the adapters in `campfire.envs` use nothing else.
Observations are built from a seat view only, so they can never carry hidden information.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any, Protocol

from campfire.kernel.chance import ChanceOutcome, ChanceSpec


class Encoding(Protocol):
    """A game's numbering of moves and views for a player count and options.

    An encoding may also offer ``legal_numbers(state) -> list[int]``: the numbers of the legal
    actions of `state`'s seat to move, sorted, read straight off the state (the OpenSpiel
    adapter uses it when there, and `sorted(legal_indices(state.legal_actions()))` when not).
    The list may be shared between calls (Pow Wow's are, one per lowest legal guess): callers
    read it and copy it before handing it out.
    """

    #: size of the action space: actions are 0 .. num_actions-1
    num_actions: int
    #: chance outcomes are 0 .. num_chance_outcomes-1
    num_chance_outcomes: int
    #: length of `observe`'s vector
    observation_size: int
    #: the observation's consecutive parts, as (name, length), in order
    sections: tuple[tuple[str, int], ...]

    def action_index(self, action: Any) -> int:
        """The number of `action`; ValueError when it has none in this action space."""
        ...

    def action(self, index: int) -> Any:
        """The action numbered `index`; ValueError for a number out of the space."""
        ...

    def legal_indices(self, legal: Sequence[Any]) -> list[int]:
        """The numbers of `legal` (a state's legal actions), in the same order."""
        ...

    def legal_mask(self, legal: Sequence[Any]) -> bytearray:
        """`num_actions` bytes, 1 at the number of every action in `legal` and 0 elsewhere (a
        NumPy int8 mask without a copy: ``np.frombuffer(mask, np.int8)``)."""
        ...

    def chance_index(self, outcome: ChanceOutcome) -> int:
        """The number of a draw or pick outcome (whole shuffles have none)."""
        ...

    def chance_outcome(self, index: int, spec: ChanceSpec) -> ChanceOutcome:
        """The outcome numbered `index` of the chance `spec` (a draw or a pick) now due."""
        ...

    def observe(self, view: Any) -> array[float]:
        """`view` as `observation_size` numbers, each between 0 and 1, in a fresh float32 array
        (typecode ``"f"``): a NumPy observation without a copy is
        ``np.frombuffer(vector, np.float32)``."""
        ...
