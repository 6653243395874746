"""Waka Tanka bots, one module a level: easy (habits), medium (card tracking and expected
gains), hard (search), expert (hard, with every other seat read on its own record).

Every bot sees only its seat view. Medium tracks the cards (`tracking.track`) and scores each
option by what it expects to gain in tokens and cards. Hard plays out the game a little way from
each promising option, in many deals of the hidden cards that fit both the view and what the
others chose to play, with everyone modelled as medium, and keeps the best option. The expert
reads each other seat's kind, calls and honesty from its own record (`expert`).
"""

from campfire.games.wakatanka.bots.easy import EasyBot, easy_action
from campfire.games.wakatanka.bots.expert import (
    EXPERT_TOKEN,
    MEDIUM_SLIP,
    WINNING_TOKEN,
    ExpertBot,
    ReadTable,
    at_call_rate,
    easy_chance,
    expert_options,
    expert_style,
    kind_chances,
)
from campfire.games.wakatanka.bots.hard import HardBot, standing, world_weight
from campfire.games.wakatanka.bots.medium import (
    MEDIUM,
    MediumBot,
    Style,
    medium_action,
    scored_options,
)

__all__ = [
    "EXPERT_TOKEN",
    "MEDIUM",
    "MEDIUM_SLIP",
    "WINNING_TOKEN",
    "EasyBot",
    "ExpertBot",
    "HardBot",
    "MediumBot",
    "ReadTable",
    "Style",
    "at_call_rate",
    "easy_action",
    "easy_chance",
    "expert_options",
    "expert_style",
    "kind_chances",
    "medium_action",
    "scored_options",
    "standing",
    "world_weight",
]
