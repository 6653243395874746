"""The outside yardstick: OpenSpiel's IS-MCTS with medium's policy as its rollouts, given the
same CPU time per decision as the top level, against 3 × the top level (or the other way round).

    nice .venv/bin/python -m benchmarks.yardstick --games 40 --settings powwow
    .venv/bin/python -m benchmarks.yardstick --games 8 --ms 50        # a fixed budget
    .venv/bin/python -m benchmarks.yardstick --settings wakatanka --ms 182.6 --first 100 \
        --games 300                     # games 100 to 399 of a row, at the budget it was run at

First a short calibration measures the top level's mean CPU time per decision (4 games against
medium and random, `benchmarks.arena_timing`) unless `--ms` fixes it; then the IS-MCTS bot
(`benchmarks.yardstick:ismcts_medium`, an arena bot) searches for that long per decision:
uniform priors, UCT, each leaf valued by one rollout to the end of the game with every player
as medium. Each row is the top level against three IS-MCTS bots; parity is 25%, and the
reference printed beside the rate.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from campfire.bots import levels, make_bot
from campfire.bots.arena import run_arena, wilson
from campfire.kernel.registry import get_game

SEED = 2024
BUDGET_VARIABLE = "CAMPFIRE_ISMCTS_MS"
SETTINGS = {
    "powwow": ("powwow", {}),
    "powwow-tomahawks": ("powwow", {"tomahawks": True}),
    "wakatanka": ("wakatanka", {}),
}


def _spiel_game(name: str, view: Any) -> Any:
    import pyspiel

    import campfire.envs.openspiel as adapter

    params: dict[str, Any] = {"players": view.players}
    for key, value in view.options.model_dump().items():
        if key in adapter.PARAMETERS[name]:
            params[key] = 0 if value is None else value
    return pyspiel.load_game(f"python_campfire_{name}", params)


class MediumRollouts:
    """IS-MCTS's leaf values: one game played out with everyone as medium."""

    def __init__(self, game: str, seed: int) -> None:
        self.game = get_game(game)
        self.rng = random.Random(seed)
        self.bots = [make_bot(self.game, "medium", seed + s) for s in range(8)]

    def evaluate(self, state: Any) -> Any:
        sim = state.campfire.clone()
        while not sim.is_terminal:
            seat = sim.to_move
            if seat is None:
                sim.apply(sim.sample_chance(self.rng))
                continue
            sim.apply(self.bots[seat].choose(sim.view(seat), sim.legal_actions()))
        return np.array(sim.returns(), dtype=float)

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1 / len(legal)) for a in legal]


class ISMCTSMedium:
    """OpenSpiel IS-MCTS from the seat view, searching for `ms` of CPU time a decision."""

    def __init__(self, seed: int | None = None, ms: float | None = None) -> None:
        self.seed = 0 if seed is None else seed
        self.ms = float(os.environ.get(BUDGET_VARIABLE, "50")) if ms is None else ms
        self.rng = random.Random(seed)
        self.games: dict[Any, Any] = {}

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        from open_spiel.python.algorithms import ismcts

        import campfire.envs.openspiel as adapter

        if len(legal) == 1:
            return legal[0]
        name = "powwow" if hasattr(view, "feathers") else "wakatanka"
        key = (name, view.players, tuple(sorted(view.options.model_dump().items())))
        spiel = self.games.get(key)
        if spiel is None:
            spiel = self.games[key] = _spiel_game(name, view)
        game = get_game(name)
        state = adapter.CampfireState(spiel, game.sample_state(view, self.rng, chance="draw"))
        evaluator = MediumRollouts(name, self.rng.randrange(2**31))
        bot = ismcts.ISMCTSBot(
            spiel,
            evaluator,
            uct_c=2.0,
            max_simulations=1,
            random_state=np.random.RandomState(self.rng.randrange(2**31)),
        )
        started = time.process_time()
        root = state
        bot.reset()
        bot._root_node = bot.create_new_node(root)
        simulations = 0
        # the first simulation only expands the root: at least two, so a move has a visit
        while simulations < 2 or 1000 * (time.process_time() - started) < self.ms:
            bot.run_simulation(bot.sample_root_state(root))
            simulations += 1
        policy = bot.get_final_policy(root, bot._root_node)
        action = max(policy, key=lambda item: item[1])[0]
        return state.box.encoding.action(int(action))


def ismcts_medium(seed: int | None = None) -> ISMCTSMedium:
    """The arena bot (`benchmarks.yardstick:ismcts_medium`); its budget from the environment."""
    return ISMCTSMedium(seed)


def calibrate(game: str, options: dict[str, Any], level: str) -> float:
    """The level's mean CPU milliseconds a decision, from 4 games against medium (CPU time, as
    the IS-MCTS budget is counted, so other work on the machine does not inflate it)."""
    from benchmarks.arena_timing import decision_times

    times = decision_times(game, 4, options, 4, level)[level]
    return sum(times) / len(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games a row (default 400)")
    parser.add_argument("--settings", default="powwow,wakatanka")
    parser.add_argument("--level", default="", help="the level measured (default: the top one)")
    parser.add_argument("--ms", type=float, default=0.0, help="IS-MCTS budget (default: matched)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--first", type=int, default=0, help="the first game's number (default 0): extends a run"
    )
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.first < 0:
        parser.error("--first must be 0 or more")
    os.nice(5)
    for setting in [s.strip() for s in args.settings.split(",") if s.strip()]:
        if setting not in SETTINGS:
            parser.error(f"unknown setting {setting!r}; choose from {', '.join(SETTINGS)}")
        game, options = SETTINGS[setting]
        level = args.level or levels(get_game(game))[-1]
        ms = args.ms or calibrate(game, options, level)
        os.environ[BUDGET_VARIABLE] = f"{ms:.3f}"
        bot = "benchmarks.yardstick:ismcts_medium"
        report = run_arena(
            game, 4, [level, bot, bot, bot], args.games, SEED, options, args.jobs, first=args.first
        )
        record = report.bots[level]
        lo, hi = wilson(record.wins, record.games)
        other = report.bots[bot]
        few = " (< 400 games)" if record.games < 400 else ""
        print(
            f"{setting}: {level} vs 3 × IS-MCTS(medium rollouts, {ms:.1f} ms a decision): "
            f"{record.wins / record.games:.1%} [{lo:.1%} – {hi:.1%}] over {record.games} games"
            f" ({record.wins} won, from game {args.first}){few}; parity 25%; IS-MCTS used "
            f"{1000 * other.seconds / max(1, other.decisions):.1f} ms a decision (wall), "
            f"{level} {1000 * record.seconds / max(1, record.decisions):.1f} ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
