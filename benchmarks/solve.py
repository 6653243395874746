"""Solve the smallest research variant of each game with OpenSpiel's CFR+ and measure how far
Campfire's own bots are from equilibrium there (their exploitability, as OpenSpiel policies).

    PYTHONPATH=src python -m benchmarks.solve [--seconds 60] [--samples 16]

A bot becomes a tabular policy by asking it, at every information state of the game tree,
`--samples` times with different seeds, and taking how often it chose each action (its mixed
strategy as far as sampling shows it). Times are process CPU time.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from typing import Any

import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, exploitability

import campfire.envs.openspiel  # noqa: F401  (registers the games)
from campfire.bots import make_bot

#: the smallest variants: (name, OpenSpiel game, parameters)
VARIANTS: list[tuple[str, str, dict[str, Any]]] = [
    (
        "Pow Wow, 2 players, feathers 1 2 3, guesses 1..6, 3 a round, 1 buzzard",
        "python_campfire_powwow",
        {
            "players": 2,
            "buzzards": 1,
            "feathers": "1 2 3",
            "guess_min": 1,
            "guess_max": 6,
            "max_guesses": 3,
        },
    ),
    (
        "Waka Tanka, 3 players, 3 animals, 1 card a kind, 1 token wins, 6 turns",
        "python_campfire_wakatanka",
        {"players": 3, "animals": 3, "cards": 1, "tokens_to_win": 1, "max_turns": 6},
    ),
]
LEVELS = ("random", "easy", "medium", "expert")


def gap(game: Any, policy: Any) -> float:
    """Exploitability: NashConv over the players (OpenSpiel's `exploitability` for two players,
    which it refuses for more)."""
    return float(exploitability.nash_conv(game, policy)) / int(game.num_players())


def solve(game: Any, seconds: float, target: float) -> tuple[float, float, int, int]:
    """CFR+ until exploitability is below `target` or `seconds` pass: (exploitability, time,
    iterations, information states)."""
    start = time.process_time()
    solver = cfr.CFRPlusSolver(game)
    iterations, value = 0, float("inf")
    while time.process_time() - start < seconds:
        for _ in range(10):
            solver.evaluate_and_update_policy()
        iterations += 10
        value = gap(game, solver.average_policy())
        if value < target:
            break
    return value, time.process_time() - start, iterations, len(solver._info_state_nodes)


def bot_policy(game: Any, level: str, samples: int) -> policy_lib.TabularPolicy:
    """The bot's choices at every information state, as frequencies over `samples` seeds."""
    tabular = policy_lib.TabularPolicy(game)
    campfire = game.campfire
    bots = [make_bot(campfire, level, seed) for seed in range(samples)]
    for state in _decision_states(game):
        key = state.information_state_string()
        row = tabular.policy_for_key(key)
        inner = state.campfire
        seat = inner.to_move
        view, legal = inner.view(seat), inner.legal_actions()
        counts = Counter(state.box.encoding.action_index(bot.choose(view, legal)) for bot in bots)
        row[:] = 0.0
        for action, count in counts.items():
            row[action] = count / samples
    return tabular


def _decision_states(game: Any) -> list[Any]:
    """One state of each information state of the tree (the first met)."""
    seen: set[str] = set()
    out: list[Any] = []
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        key = state.information_state_string()
        if key not in seen:
            seen.add(key)
            out.append(state)
        stack.extend(state.child(a) for a in state.legal_actions())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--samples", type=int, default=16)
    args = parser.parse_args()
    print(f"{'variant':<75} {'info sets':>9} {'CFR+ s':>7} {'iters':>6} {'expl.':>8}  bots")
    for title, name, params in VARIANTS:
        game = pyspiel.load_game(name, params)
        value, seconds, iterations, infosets = solve(game, args.seconds, 0.01)
        bots = []
        for level in LEVELS:
            tabular = bot_policy(game, level, args.samples)
            bots.append(f"{level} {gap(game, tabular):.3f}")
        print(
            f"{title:<75} {infosets:>9} {seconds:>7.1f} {iterations:>6} {value:>8.4f}  "
            + ", ".join(bots),
            flush=True,
        )


if __name__ == "__main__":
    main()
