"""One whole bot game, as `campfire simulate` and the arena play it."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from campfire.bots import make_bot
from campfire.kernel.bots import Bot
from campfire.kernel.state import Game, State


def play_one(
    game: Game[Any],
    players: int,
    options: dict[str, Any],
    levels: list[str],
    seed: str,
    wrap: Callable[[Bot], Bot] | None = None,
    imports: bool = False,
) -> State[Any, Any]:
    """One whole bot game; `seed` fixes every shuffle and every bot's choices.

    `wrap` may wrap each seat's bot (to time it, say) without changing what it chooses;
    `imports` lets a level name a bot of one's own (`module:factory`).
    """
    rng = random.Random(seed)
    state: State[Any, Any] = game.new_state(players, options, narrate=False)
    bots = [make_bot(game, level, rng.randrange(2**32), imports) for level in levels]
    if wrap is not None:
        bots = [wrap(bot) for bot in bots]
    state.play_out(bots, rng)
    return state
