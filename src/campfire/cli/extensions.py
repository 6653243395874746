"""Extra terminal commands some games offer (none yet)."""

from __future__ import annotations

from typing import Any

from campfire.kernel.state import Game
from campfire.terminal.session import Command


def terminal_commands(game: Game[Any]) -> dict[str, Command]:
    return {}
