"""Bots by level name, for every interface that seats them (terminal, simulate, server).

A level is a name the game registers (`Game.bot_levels()`). Where the caller allows it (the
arena, run by a person on their own machine, never a server), a level may also be
`module:name`, a bot factory of one's own: anything that takes a seed and returns an object
with `choose(view, legal)`.
"""

from __future__ import annotations

import importlib
from typing import Any

from campfire.i18n import N_
from campfire.kernel.bots import Bot, BotFactory, RandomBot
from campfire.kernel.errors import Refusal
from campfire.kernel.state import Game

__all__ = [
    "Bot",
    "RandomBot",
    "coach",
    "imported_factory",
    "levels",
    "make_bot",
    "seat_levels",
]


def levels(game: Game[Any]) -> list[str]:
    return list(game.bot_levels())


def coach(game: Game[Any], view: Any) -> dict[str, Any]:
    """The top level's reading of the table for the seat of `view`, as JSON-ready data.

    For an opt-in hint shown to that seat only (it reads nothing the view does not show). A game
    offers a coach by a `coach(view)` method; ValueError when it has none, or for a view that has
    nothing to read (a spectator's, or between rounds).
    """
    method = getattr(game, "coach", None)
    if method is None:
        raise ValueError(Refusal(N_("{game} has no coach"), game=game.title))
    data: dict[str, Any] = method(view)
    return data


def imported_factory(spec: str) -> BotFactory:
    """The bot factory `module:name` names; ValueError says why it cannot be had."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError(
            Refusal(N_("a bot of your own is named module:factory, not {spec}"), spec=repr(spec))
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(
            Refusal(
                N_("cannot import {module} for the bot {spec}: {reason}"),
                module=repr(module_name),
                spec=repr(spec),
                reason=str(error),
            )
        ) from None
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise ValueError(
            Refusal(
                N_("{module} has no bot factory named {name}"),
                module=module_name,
                name=repr(attribute),
            )
        )
    return factory  # type: ignore[no-any-return]


def make_bot(game: Game[Any], level: str, seed: int | None = None, imports: bool = False) -> Bot:
    """A bot of `level` for `game`; ValueError names the levels there are.

    `imports`: a level `module:name` is loaded from that module (for the caller's own bots).
    """
    if imports and ":" in level:
        return imported_factory(level)(seed)
    factories = game.bot_levels()
    factory = factories.get(level)
    if factory is None:
        raise ValueError(
            Refusal(
                N_("unknown bot level {level} for {game} (levels: {levels})"),
                level=repr(level),
                game=game.title,
                levels=", ".join(factories),
            )
        )
    return factory(seed)


def seat_levels(
    spec: str,
    seats: int,
    game: Game[Any],
    extra: tuple[str, ...] = (),
    imports: bool = False,
) -> list[str]:
    """Levels for `seats` seats from 'medium' (all alike) or 'easy,hard,...' (one per seat)."""
    names = [name.strip() for name in spec.split(",")]
    if len(names) == 1:
        names *= seats
    if len(names) != seats:
        raise ValueError(
            Refusal(
                N_("--bots names {count} levels for {seats} seats: give 1 or {seats}"),
                count=len(names),
                seats=seats,
            )
        )
    known = [*game.bot_levels(), *extra]
    for name in names:
        if imports and ":" in name:
            imported_factory(name)
        elif name not in known:
            raise ValueError(
                Refusal(
                    N_(
                        "unknown bot level {level} for {game} (levels: {levels} or"
                        " module:factory for a bot of your own)"
                    )
                    if imports
                    else N_("unknown bot level {level} for {game} (levels: {levels})"),
                    level=repr(name),
                    game=game.title,
                    levels=", ".join(known),
                )
            )
    return names
