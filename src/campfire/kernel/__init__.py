"""The kernel: turn-based games with chance and hidden information.

Everything outside `campfire.games` is written against these names only.
"""

from campfire.kernel.bots import Bot, BotFactory, RandomBot
from campfire.kernel.chance import (
    ChanceMode,
    ChanceOutcome,
    ChanceSpec,
    Draw,
    Pick,
    Shuffle,
    Shuffled,
    Stack,
)
from campfire.kernel.encoding import Encoding
from campfire.kernel.errors import CampfireError, IllegalAction, OptionError, RecordError
from campfire.kernel.events import Event, events_for
from campfire.kernel.options import Options, parse_option_value, parse_options
from campfire.kernel.records import Record
from campfire.kernel.registry import games, get_game
from campfire.kernel.state import Entry, Game, PlayerMove, State, View
from campfire.kernel.text import TextInterface

__all__ = [
    "Bot",
    "BotFactory",
    "CampfireError",
    "ChanceMode",
    "ChanceOutcome",
    "ChanceSpec",
    "Draw",
    "Encoding",
    "Entry",
    "Event",
    "Game",
    "IllegalAction",
    "OptionError",
    "Options",
    "Pick",
    "PlayerMove",
    "RandomBot",
    "Record",
    "RecordError",
    "Shuffle",
    "Shuffled",
    "Stack",
    "State",
    "TextInterface",
    "View",
    "events_for",
    "games",
    "get_game",
    "parse_option_value",
    "parse_options",
]
