"""Games are found by name through the `campfire.games` entry point group.

A new game is a folder with a `Game` object and one entry-point line in `pyproject.toml`.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points
from typing import Any

from campfire.i18n import N_
from campfire.kernel.errors import Refusal
from campfire.kernel.state import Game


@cache
def games() -> dict[str, Game[Any]]:
    found: dict[str, Game[Any]] = {}
    for point in entry_points(group="campfire.games"):
        game = point.load()
        found[game.name] = game
    return dict(sorted(found.items()))


def get_game(name: str) -> Game[Any]:
    """The game called `name`; KeyError with the known names when there is none."""
    known = games()
    try:
        return known[name]
    except KeyError:
        raise KeyError(
            Refusal(
                N_("unknown game {name} (games: {games})"), name=repr(name), games=", ".join(known)
            )
        ) from None
