"""Pow Wow: guess the total of the feathers on every head but your own."""

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
]
