"""The heads-up equilibrium: how close CFR+ gets, and how far medium's thresholds are from safe.

    .venv/bin/python -m benchmarks.duel                      # the abstractions, about a minute
    .venv/bin/python -m benchmarks.duel --games 400 --jobs 2 # and heads-up games in the engine
    .venv/bin/python -m benchmarks.duel --games 400 --jobs 2 --write   # into docs/bots.md

For each abstraction of a two-player round (`campfire.games.powwow.bots.duel`: guesses from
`low` to `high`, medium's thresholds after `cap` guesses, a fresh stack) it prints the time to
solve, the opener's value, and the exploitability (what a best response gains over the value,
averaged over the two seats) of the CFR+ profile and of the reference in the same tree, medium's
thresholds. With `--games` it then plays two-player games in the engine (seed 2024), the
equilibrium bot and the expert against medium and easy players and against each other.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from campfire.bots.arena import run_arena, wilson
from campfire.games.powwow.bots import ExpertBot
from campfire.games.powwow.bots.duel import (
    Duel,
    DuelBot,
    DuelGame,
    exploitability,
    medium_profile,
    medium_response,
    solve,
)

SEED = 2024
DOC = Path(__file__).resolve().parent.parent / "docs" / "bots.md"
START, END = "<!-- duel table: start -->", "<!-- duel table: end -->"
ABSTRACTIONS = (
    (Duel(cap=2), (50, 100, 200, 400)),  # the one DuelBot plays
    (Duel(cap=3), (100, 400)),
)
DUEL_BOT = "campfire.games.powwow.bots.duel:DuelBot"
EXPLOITER = "benchmarks.duel:medium_exploiter"
DUELLING_EXPERT = "benchmarks.duel:duelling_expert"
MATCHES = (
    (DUEL_BOT, "medium"),
    (DUEL_BOT, "easy"),
    ("expert", "medium"),
    ("expert", "easy"),
    ("expert", DUEL_BOT),
    (EXPLOITER, "medium"),
    (EXPLOITER, "expert"),
    (EXPLOITER, DUEL_BOT),
    (EXPLOITER, DUELLING_EXPERT),
)


def medium_exploiter(seed: int | None = None) -> DuelBot:
    """An arena bot that knows medium's rules: heads-up, the best response to them."""
    return DuelBot(seed, solver=medium_response)


def duelling_expert(seed: int | None = None) -> ExpertBot:
    """The expert that plays the equilibrium heads-up against a seat it does not read as medium."""
    return ExpertBot(seed, duel="doubted")


def abstractions() -> None:
    print("| abstraction | iterations | solve s | opener's value | exploitability | medium's |")
    print("|---|---:|---:|---:|---:|---:|")
    for duel, counts in ABSTRACTIONS:
        game = DuelGame(duel)
        reference = exploitability(game, medium_profile(game))
        for iterations in counts:
            started = time.perf_counter()
            profile = solve(game, iterations)
            seconds = time.perf_counter() - started
            print(
                f"| {duel.low}..{duel.high}, cap {duel.cap} | {iterations} | {seconds:.1f} | "
                f"{game.value(profile):+.4f} | {exploitability(game, profile):.4f} | "
                f"{reference:.4f} |",
                flush=True,
            )


def matches(games: int, jobs: int) -> list[str]:
    lines = [
        "| two-player games | games | first seat's win rate | 95% interval | ms a decision |",
        "|---|---:|---:|---|---|",
    ]
    print()
    print(*lines, sep="\n")
    for lineup in MATCHES:
        report = run_arena("powwow", 2, list(lineup), games, SEED, jobs=jobs)
        bots = report.to_json()["bots"]
        first = bots[lineup[0]]
        lo, hi = wilson(first["wins"], first["games"])
        ms = ", ".join(f"{name.split(':')[-1]} {b['ms_per_decision']}" for name, b in bots.items())
        names = " vs ".join(name.split(":")[-1] for name in lineup)
        lines.append(
            f"| {names} | {first['games']} | {first['win_rate']:.1%} | {lo:.1%} – {hi:.1%} | {ms} |"
        )
        print(lines[-1], flush=True)
    return lines


def write(lines: list[str]) -> None:
    """Put the table of games between the markers in docs/bots.md."""
    doc = DOC.read_text()
    if START not in doc or END not in doc:
        raise SystemExit(f"{DOC} has no duel table markers ({START} ... {END})")
    head, rest = doc.split(START, 1)
    _, tail = rest.split(END, 1)
    DOC.write_text(head + START + "\n" + "\n".join(lines) + "\n" + END + tail)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=0, help="heads-up games a row (0: none)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="put the games in docs/bots.md")
    args = parser.parse_args()
    if args.games < 0:
        parser.error("--games must be positive")
    abstractions()
    if args.games:
        lines = matches(args.games, args.jobs)
        if args.write:
            write(lines)
            print(f"wrote the table of games to {DOC}")


if __name__ == "__main__":
    main()
