"""Playing at a terminal: one person against bots, or several sharing the keyboard."""

from campfire.terminal.session import Session

__all__ = ["Session"]
