"""One whole bot game, as `campfire simulate` and the arena play it."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from campfire.bots import make_bot
from campfire.i18n import N_
from campfire.kernel.bots import Bot
from campfire.kernel.errors import Refusal
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


# --- many games: on this machine or spread over a Ray cluster ------------------------------
GameSummary = tuple[list[int], int, dict[str, int], dict[str, Any] | None]


def play_games(
    name: str,
    players: int,
    options: dict[str, Any],
    levels: list[str],
    seed: int,
    indexes: list[int],
    records: bool = False,
) -> list[GameSummary]:
    """Games `indexes` of a `campfire simulate` run: each one's winners, moves, tally and, when
    asked, record. Module level, so a worker process or a Ray task can run it."""
    from campfire.kernel.records import Record
    from campfire.kernel.registry import get_game

    game = get_game(name)
    out: list[GameSummary] = []
    for i in indexes:
        state = play_one(game, players, options, levels, f"{seed}/{i}")
        moves = sum(1 for entry in state.history if hasattr(entry, "seat"))
        record = Record.of(state).to_json() if records else None
        out.append((state.winners(), moves, game.tally(state), record))
    return out


def chunks(count: int, size: int) -> list[list[int]]:
    """0 .. count-1 in consecutive runs of `size`."""
    return [list(range(start, min(count, start + size))) for start in range(0, count, size)]


class RayError(Exception):
    """Ray is missing, or the cluster cannot be reached: the message says which."""


def check_ray_address(address: str) -> None:
    """`local`, `auto`, `host:port` or `ray://host:port`; RayError otherwise."""
    if address in ("local", "auto"):
        return
    rest = address.removeprefix("ray://")
    host, sep, port = rest.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise RayError(
            Refusal(
                N_("--ray takes local, auto, HOST:PORT or ray://HOST:PORT, not {address}"),
                address=repr(address),
            )
        )


def on_ray(
    address: str, function: Callable[..., Any], calls: list[tuple[Any, ...]]
) -> Iterator[Any]:
    """`function(*args)` for each of `calls` as Ray tasks, the results in the order of `calls`
    (so a run merges them exactly as a local run does).

    `local` starts Ray on this machine (listening on 127.0.0.1 only); another address joins a
    running cluster (`ray start --head` on one node, `ray start --address=HEAD:6379` on the
    others). A Ray session already open in this process is used as it is and left open.
    """
    check_ray_address(address)
    try:
        import ray
    except ImportError:
        raise RayError(
            Refusal(N_("--ray needs Ray: pip install 'campfire-games[cluster]'"))
        ) from None
    started = False
    if not ray.is_initialized():
        settings: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": "ERROR",
        }
        try:
            if address == "local":
                ray.init(_node_ip_address="127.0.0.1", **settings)
            else:
                ray.init(address=address, **settings)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise RayError(
                Refusal(
                    N_("cannot reach the Ray cluster at {address}: {reason}"),
                    address=address,
                    reason=str(error),
                )
            ) from None
        started = True
    try:
        task = ray.remote(function)
        pending = [task.remote(*args) for args in calls]
        for ref in pending:
            yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()
