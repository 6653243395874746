"""Ratings of players: finishing rankings, openskill updates, per-game statistics.

Pure: nothing here touches the server or a database (the server's store persists what this
computes). See docs/accounts.md, "How ratings are computed".
"""

from campfire.ratings.ranking import finishing_ranks, places
from campfire.ratings.skill import (
    PROVISIONAL_GAMES,
    SCALE,
    Skill,
    bot_skill,
    initial,
    provisional,
    rate,
)
from campfire.ratings.stats import STAT_KEYS, add_up, game_stats

__all__ = [
    "PROVISIONAL_GAMES",
    "SCALE",
    "STAT_KEYS",
    "Skill",
    "add_up",
    "bot_skill",
    "finishing_ranks",
    "game_stats",
    "initial",
    "places",
    "provisional",
    "rate",
]
