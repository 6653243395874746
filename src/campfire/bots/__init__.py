"""Bots by level name, for every interface that seats them (terminal, simulate, server)."""

from __future__ import annotations

from typing import Any

from campfire.kernel.bots import Bot, RandomBot
from campfire.kernel.state import Game

__all__ = ["Bot", "RandomBot", "levels", "make_bot", "seat_levels"]


def levels(game: Game[Any]) -> list[str]:
    return list(game.bot_levels())


def make_bot(game: Game[Any], level: str, seed: int | None = None) -> Bot:
    """A bot of `level` for `game`; ValueError names the levels there are."""
    factories = game.bot_levels()
    factory = factories.get(level)
    if factory is None:
        raise ValueError(
            f"unknown bot level {level!r} for {game.title} (levels: {', '.join(factories)})"
        )
    return factory(seed)


def seat_levels(spec: str, seats: int, game: Game[Any], extra: tuple[str, ...] = ()) -> list[str]:
    """Levels for `seats` seats from 'medium' (all alike) or 'easy,hard,...' (one per seat)."""
    names = [name.strip() for name in spec.split(",")]
    if len(names) == 1:
        names *= seats
    if len(names) != seats:
        raise ValueError(f"--bots names {len(names)} levels for {seats} seats: give 1 or {seats}")
    known = [*game.bot_levels(), *extra]
    for name in names:
        if name not in known:
            raise ValueError(
                f"unknown bot level {name!r} for {game.title} (levels: {', '.join(known)})"
            )
    return names
