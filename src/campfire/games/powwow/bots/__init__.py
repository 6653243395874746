"""Pow Wow bots, one module a level: easy (rules of thumb), medium (exact odds and thresholds),
hard (inference and search), expert (hard, with every other seat read on its own record).

Every bot sees only its seat view. Medium turns the view into the exact distribution of the
round's total (`odds.seat_odds`) and acts on thresholds. Hard starts from the same odds but first
asks what its own feathers must be for the others to have acted as they did this round (they see
its feathers; `belief`), then tries each promising action against every likely set of own
feathers, playing the rest of the round out with the others modelled as threshold players, and
keeps the action least likely to earn it the buzzard. The expert weighs each other seat's turns
by what that seat has shown itself to be (`expert`).
"""

from campfire.games.powwow.bots.belief import belief, likelihood, round_moments
from campfire.games.powwow.bots.easy import EasyBot, easy_action
from campfire.games.powwow.bots.expert import PRIOR, TYPES, ExpertBot, ReadTable, mixed_belief
from campfire.games.powwow.bots.hard import HardBot, RoundModel
from campfire.games.powwow.bots.medium import MEDIUM, MediumBot, Style, threshold_action

__all__ = [
    "MEDIUM",
    "PRIOR",
    "TYPES",
    "EasyBot",
    "ExpertBot",
    "HardBot",
    "MediumBot",
    "ReadTable",
    "RoundModel",
    "Style",
    "belief",
    "easy_action",
    "likelihood",
    "mixed_belief",
    "round_moments",
    "threshold_action",
]
