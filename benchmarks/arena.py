"""Bot strength, measured with the arena against the issue's targets; regenerates the table in
docs/bots.md (with `--only`, just the rows run; `--scale 0.25` plays a quarter of the games).

    nice .venv/bin/python -m benchmarks.arena                  # the full run (about an hour of CPU)
    .venv/bin/python -m benchmarks.arena --quick --no-write    # a smoke run, docs untouched
    .venv/bin/python -m benchmarks.arena --only "expert,easy,easy,easy" --games 1600

Each row is one `campfire arena` run: the lineup is rotated through the seats game by game, and
the row's bot (the first of the lineup) is measured against the rest. The reference is parity,
1 / players, printed beside every win rate, and each target the issue sets (hard vs medium,
medium vs random) is checked against the lower end of the 95% interval as well as the rate.
The same command line (`campfire arena ... --seed 2024`) replays any row.
"""

from __future__ import annotations

import argparse
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from campfire.bots.arena import ArenaReport, run_arena, wilson

DOC = Path(__file__).resolve().parent.parent / "docs" / "bots.md"
START, END = "<!-- arena table: start -->", "<!-- arena table: end -->"
SEED = 2024


@dataclass(frozen=True)
class Row:
    game: str
    players: int
    lineup: tuple[str, ...]
    games: int
    options: dict[str, Any] = field(default_factory=dict)
    target: float | None = None  # the win rate the first bot must reach

    @property
    def command(self) -> str:
        options = "".join(f" --option {k}={str(v).lower()}" for k, v in self.options.items())
        return (
            f"campfire arena {self.game} --players {self.players} --bots {','.join(self.lineup)}"
            f" --games {self.games} --seed {SEED}{options}"
        )


TOMAHAWKS = {"tomahawks": True}
ROWS = [
    Row("powwow", 4, ("hard", "medium", "medium", "medium"), 400, target=0.40),
    Row("powwow", 4, ("medium", "random", "random", "random"), 400, target=0.75),
    Row("powwow", 2, ("hard", "medium"), 400, target=0.60),
    Row("powwow", 4, ("hard", "medium", "medium", "medium"), 400, TOMAHAWKS, 0.40),
    Row("powwow", 4, ("medium", "random", "random", "random"), 400, TOMAHAWKS, 0.75),
    Row("powwow", 2, ("hard", "medium"), 400, TOMAHAWKS, 0.60),
    Row("wakatanka", 4, ("hard", "medium", "medium", "medium"), 400, target=0.40),
    Row("wakatanka", 4, ("medium", "random", "random", "random"), 400, target=0.75),
    # beyond the targets: the other levels, for a sense of the ladder
    Row("powwow", 4, ("easy", "random", "random", "random"), 400),
    Row("powwow", 4, ("medium", "easy", "easy", "easy"), 400),
    Row("powwow", 4, ("hard", "easy", "easy", "easy"), 400),
    Row("wakatanka", 4, ("easy", "random", "random", "random"), 400),
    Row("wakatanka", 4, ("medium", "easy", "easy", "easy"), 400),
    Row("wakatanka", 4, ("hard", "easy", "easy", "easy"), 400),
    Row("powwow", 4, ("hard", "medium", "easy", "random"), 400),
    Row("wakatanka", 4, ("hard", "medium", "easy", "random"), 400),
    # the expert (issue 11): against easy, medium and a mixed table
    Row("powwow", 4, ("expert", "easy", "easy", "easy"), 400, target=0.62),
    Row("wakatanka", 4, ("expert", "easy", "easy", "easy"), 400, target=0.93),
    Row("powwow", 4, ("expert", "medium", "medium", "medium"), 400, target=0.91),
    Row("wakatanka", 4, ("expert", "medium", "medium", "medium"), 400, target=0.685),
    Row("powwow", 4, ("expert", "medium", "easy", "random"), 400, target=0.75),
    Row("wakatanka", 4, ("expert", "medium", "easy", "random"), 400, target=0.65),
    Row("powwow", 4, ("expert", "medium", "medium", "medium"), 400, TOMAHAWKS, 0.40),
]


def measure(row: Row, jobs: int, scale: float, games: int = 0) -> ArenaReport:
    games = games or max(row.players, int(row.games * scale))
    return run_arena(row.game, row.players, list(row.lineup), games, SEED, row.options, jobs)


def line(row: Row, report: ArenaReport) -> tuple[str, bool | None]:
    """One row of the table, and whether its target is met (None: no target)."""
    first = row.lineup[0]
    record = report.bots[first]
    rate = record.wins / record.games
    lo, hi = wilson(record.wins, record.games)
    title = {"powwow": "Pow Wow", "wakatanka": "Waka Tanka"}[row.game]
    setting = f"{title}, {row.players} players" + (", tomahawks" if row.options else "")
    rest = sorted(set(row.lineup[1:]), key=row.lineup.index)
    against = ", ".join(f"{row.lineup.count(b) - (b == first)} × {b}" for b in rest)
    met: bool | None = None
    target = verdict = "—"
    if row.target is not None:
        met = lo >= row.target if report.games >= row.games else rate >= row.target
        target = f"≥ {row.target:.1%}".replace(".0%", "%")
        if met and report.games < row.games:
            verdict = f"rate met ({report.games} of {row.games} games)"
        elif met:
            verdict = "met"
        elif rate >= row.target:
            verdict = "rate met, interval not"
        else:
            verdict = f"missed by {row.target - rate:.1%}"
    text = (
        f"| {setting} | {first} vs {against} | {report.games} | {rate:.1%} | "
        f"{lo:.1%} – {hi:.1%} | {1 / row.players:.0%} | {target} | {verdict} |"
    )
    return text, met


def table(lines: list[str], jobs: int, scale: float) -> str:
    head = [
        START,
        "",
        f"Measured by `benchmarks/arena.py` (seed {SEED}"
        + ("; some rows at a share of their games, as the games column says" if scale != 1 else "")
        + "). A row's bot is the first of its lineup; the lineup is rotated through the seats;"
        " the interval is Wilson's 95% score interval over the games. A target is met when the"
        " whole interval clears it; a row of fewer games than its target asks for says so and"
        " is judged by its rate only.",
        "",
        "| setting | lineup | games | win rate | 95% interval | parity | target | verdict |",
        "|---|---|---:|---:|---:|---:|---:|---|",
        *lines,
        "",
        "Each row replays with `campfire arena GAME --players N --bots LINEUP --games K"
        f" --seed {SEED} [--option tomahawks=true]`.",
        "",
        END,
    ]
    return "\n".join(head)


def merge(lines: list[str]) -> list[str]:
    """The doc's table rows with `lines` put in place of the rows of the same setting and
    lineup (new rows at the end): a partial run (`--only`) updates only its own rows."""
    doc = DOC.read_text()
    start, end = doc.find(START), doc.find(END)
    old = [
        row
        for row in doc[start:end].splitlines()
        if row.startswith("| ") and not row.startswith(("| setting", "|---"))
    ]

    def key(row: str) -> str:
        return "|".join(row.split("|")[1:3])

    fresh = {key(row): row for row in lines}
    out = [fresh.pop(key(row), row) for row in old]
    return out + [row for row in lines if key(row) in fresh]


def write(text: str) -> None:
    doc = DOC.read_text()
    pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.DOTALL)
    if not pattern.search(doc):
        raise SystemExit(f"{DOC} has no arena table markers ({START} ... {END})")
    DOC.write_text(pattern.sub(lambda _: text, doc))


def selected(command: str, only: str) -> bool:
    """Whether `--only` picks this row: its text in the command (a final `$`: at its end)."""
    if only.endswith("$"):
        return command.endswith(only[:-1])
    return only in command


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--quick", action="store_true", help="a tenth of the games")
    parser.add_argument("--no-write", action="store_true", help="leave docs/bots.md alone")
    parser.add_argument(
        "--only",
        default="",
        help="run only rows whose command has this text (ending in $: ends with it)",
    )
    parser.add_argument("--scale", type=float, default=1.0, help="a share of each row's games")
    parser.add_argument(
        "--games",
        type=int,
        default=0,
        help="games a row instead of the row's own count (more: a narrower interval)",
    )
    args = parser.parse_args()
    os.nice(5)  # a shared machine: the arena is background work
    scale = 0.1 if args.quick else args.scale
    if not 0 < scale <= 1:
        parser.error("--scale must be in (0, 1]")
    if args.games < 0:
        parser.error("--games must be positive")
    lines: list[str] = []
    missed = 0
    for row in ROWS:
        if args.only and not selected(row.command, args.only):
            continue
        report = measure(row, args.jobs, scale, args.games)
        text, met = line(row, report)
        missed += met is False
        lines.append(text)
        print(text, f"  [{report.seconds:.0f} s]  {row.command}", flush=True)
    if not args.no_write:
        write(table(merge(lines) if args.only else lines, args.jobs, scale))
        print(f"wrote the table to {DOC}")
    print(f"{missed} target(s) missed" if missed else "every target met")


if __name__ == "__main__":
    main()
