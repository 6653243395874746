"""Campfire: Pow Wow and Waka Tanka, exact rules for people, bots and research."""

from campfire.kernel import Record, get_game

__version__ = "0.1.0"
__all__ = ["Record", "__version__", "get_game"]
