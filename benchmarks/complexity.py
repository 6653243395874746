"""How big the full games are, in the terms of RLCard's game table: information sets, their
average size, action space and game length, for the games as OpenSpiel sees them
(`python_campfire_powwow` / `python_campfire_wakatanka`, draw mode).

    PYTHONPATH=src python -m benchmarks.complexity [--games 1000] [--sizes 30] [--samples 200]

None of these games can be enumerated, so the figures are estimated by sampling:

- information sets: `--games` games with uniform random moves and chance by its
  probabilities; every decision node's information-state string (the player to move's) is
  counted. The distinct strings seen are a floor; Chao1's capture-recapture estimate
  S + f1(f1 - 1) / (2(f2 + 1)) from the strings seen once (f1) and twice (f2) is still a lower
  bound of the true number, and when almost every string is seen once (f1 ≈ S) it says only that
  the space is far larger than the sample; the growth between the first half of the games and
  all of them is printed too (a space that is nearly covered stops growing).
- average size (histories per information set): at `--sizes` decision nodes picked at random
  from the games, `--samples` determinizations (`resample_from_infostate`, what the player
  cannot see dealt again); a history is told apart by every player's information-state string
  together (everything dealt is seen by some seat), and the distinct ones, Chao1-corrected,
  are that information set's size; the table gives their mean.
- action space: the encoding's action numbers; game length: player moves (and all steps with
  chance) per game, mean and largest seen.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from typing import Any

import pyspiel

import campfire.envs.openspiel  # noqa: F401  (registers the games)

#: the full games measured: (name, OpenSpiel game, parameters)
GAMES: list[tuple[str, str, dict[str, Any]]] = [
    ("Pow Wow, 2 players", "python_campfire_powwow", {"players": 2}),
    ("Pow Wow, 4 players", "python_campfire_powwow", {"players": 4}),
    ("Pow Wow, 4 players, tomahawks", "python_campfire_powwow", {"players": 4, "tomahawks": True}),
    ("Waka Tanka, 3 players", "python_campfire_wakatanka", {"players": 3}),
    ("Waka Tanka, 4 players", "python_campfire_wakatanka", {"players": 4}),
]


def chao1(counts: Counter[Any]) -> float:
    """Chao1's bias-corrected estimate of how many kinds there are from how often each was seen."""
    seen = Counter(counts.values())
    f1, f2 = seen[1], seen[2]
    return len(counts) + f1 * (f1 - 1) / (2 * (f2 + 1))


def play(game: Any, rng: random.Random, keep: list[Any], keep_odds: float) -> tuple[int, int]:
    """One random game; each decision node's information-state string is appended to `keep`'s
    first list, and the node itself (a clone) kept for sizing with probability `keep_odds`."""
    strings, nodes = keep
    state = game.new_initial_state()
    moves = steps = 0
    while not state.is_terminal():
        steps += 1
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        player = state.current_player()
        strings.append(state.information_state_string(player))
        if rng.random() < keep_odds:
            nodes.append(state.clone())
        moves += 1
        state.apply_action(rng.choice(state.legal_actions()))
    return moves, steps


def size_of(state: Any, samples: int, rng: random.Random) -> float:
    """The information set's size at `state` (for the player to move), estimated from
    `samples` determinizations."""
    player = state.current_player()
    players = state.get_game().num_players()
    seen: Counter[tuple[str, ...]] = Counter()
    for _ in range(samples):
        sample = state.resample_from_infostate(player, rng.random)
        seen[tuple(sample.information_state_string(p) for p in range(players))] += 1
    return chao1(seen)


def measure(name: str, params: dict[str, Any], games: int, sizes: int, samples: int, seed: int):
    game = pyspiel.load_game(name, params)
    rng = random.Random(seed)
    strings: list[str] = []
    nodes: list[Any] = []
    lengths: list[tuple[int, int]] = []
    half: int | None = None
    for g in range(games):
        lengths.append(play(game, rng, [strings, nodes], 4 * sizes / (games * 60)))
        if g + 1 == games // 2:
            half = len(set(strings))
    counts = Counter(strings)
    picked = rng.sample(nodes, min(sizes, len(nodes)))
    mean_size = sum(size_of(node, samples, rng) for node in picked) / max(len(picked), 1)
    moves = [m for m, _ in lengths]
    steps = [s for _, s in lengths]
    return {
        "distinct": len(counts),
        "half": half,
        "once": sum(1 for c in counts.values() if c == 1),
        "chao1": chao1(counts),
        "size": mean_size,
        "sized": len(picked),
        "actions": game.num_distinct_actions(),
        "moves": sum(moves) / len(moves),
        "max_moves": max(moves),
        "steps": sum(steps) / len(steps),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="random games a row")
    parser.add_argument("--sizes", type=int, default=30, help="information sets sized a row")
    parser.add_argument("--samples", type=int, default=200, help="determinizations each")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(
        f"{args.games} random games a row; sizes from {args.samples} determinizations at "
        f"{args.sizes} random decision nodes; CPU time per row"
    )
    print(
        "| game | info sets seen (half the games) | seen once | Chao1 (a floor) "
        "| avg. info set size | action space | moves a game (max) | steps with chance | CPU s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for title, name, params in GAMES:
        start = time.process_time()
        r = measure(name, params, args.games, args.sizes, args.samples, args.seed)
        took = time.process_time() - start
        print(
            f"| {title} | {r['distinct']:,} ({r['half']:,}) | {r['once']:,} | {r['chao1']:.3g} "
            f"| {r['size']:.3g} ({r['sized']} sized) | {r['actions']} "
            f"| {r['moves']:.1f} ({r['max_moves']}) | {r['steps']:.1f} | {took:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
