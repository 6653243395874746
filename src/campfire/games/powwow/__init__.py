"""Pow Wow: guess the total of the feathers on every head but your own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from campfire.games.powwow.actions import (
    AGREE,
    DISPUTE,
    REVERSE,
    Action,
    Agree,
    Dispute,
    Guess,
    Reverse,
)
from campfire.games.powwow.feathers import FEATHERS, count
from campfire.games.powwow.game import GAME, Powwow
from campfire.games.powwow.options import PowwowOptions
from campfire.games.powwow.state import PowwowState
from campfire.games.powwow.view import PowwowView, RoundResult

if TYPE_CHECKING:
    from campfire.games.powwow.review import PowwowJudge


def judge() -> PowwowJudge:
    """The reviewer's judge of Pow Wow (`campfire.review`), loaded when a review asks for it:
    the rules never import it, nor does it import the rules' game object."""
    from campfire.games.powwow.review import PowwowJudge

    return PowwowJudge()


__all__ = [
    "AGREE",
    "DISPUTE",
    "FEATHERS",
    "GAME",
    "REVERSE",
    "Action",
    "Agree",
    "Dispute",
    "Guess",
    "Powwow",
    "PowwowOptions",
    "PowwowState",
    "PowwowView",
    "Reverse",
    "RoundResult",
    "count",
    "judge",
]
