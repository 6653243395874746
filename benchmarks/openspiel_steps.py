"""Games through pyspiel's loop, for an instruction count (`valgrind --tool=callgrind`).

Instructions do not depend on the machine's load, so on a shared machine they decide what CPU
time cannot. The loop is `benchmarks.engine`'s own (`openspiel_run`); run it once with the
games and once with none, and divide the difference by the steps it prints (the start-up and
the warm-up game cancel out):

    for games in 0 300; do PYTHONHASHSEED=0 valgrind --tool=callgrind \
        --callgrind-out-file=/dev/null .venv/bin/python -m benchmarks.openspiel_steps \
        python_campfire_wakatanka "$games"; done

(`python_liars_poker` with 2000 games instead of 300: its games are shorter.) Seeded, so the
same code plays the same games: a change to the rules that changes the games changes the steps.
"""

from __future__ import annotations

import argparse
import random

from benchmarks.engine import openspiel_run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a pyspiel game name, e.g. python_campfire_powwow")
    parser.add_argument("games", type=int, help="games after one warm-up game (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.games < 0:
        parser.error("games must be 0 or more")
    run = openspiel_run(args.game)
    rng = random.Random(args.seed)
    run(rng)  # warm-up: tables made once, caches filled
    steps = sum(run(rng) for _ in range(args.games))
    print(f"{args.game}: {args.games} games, {steps} steps")


if __name__ == "__main__":
    main()
