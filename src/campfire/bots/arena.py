"""The arena: many bot games, the bots rotated through the seats, and how well each bot did.

Games run in worker processes, or as tasks on a Ray cluster; each game is fixed by
`f"{seed}/{index}"` exactly as `campfire simulate` fixes it, so a game can be replayed alone.
Results are put together in game order, so the same seed gives the same report whatever the
number of processes or machines.

A game with several winners (a tie) gives each of them an equal share of the win, so the win
rates of a table add up to one. A bot named for several seats is counted over all of them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from campfire.bots.match import play_one
from campfire.kernel.registry import get_game

Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound near 0 and 1, unlike p ± z·se)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def lineup(levels: Sequence[str], index: int) -> list[str]:
    """The seats of game `index`: the bots rotated one seat further each game."""
    n = len(levels)
    shift = index % n
    return [levels[(seat + shift) % n] for seat in range(n)]


@dataclass(frozen=True, slots=True)
class GameResult:
    index: int
    seats: tuple[str, ...]
    winners: tuple[int, ...]
    moves: int
    decisions: tuple[tuple[str, float, int], ...]  # (bot, seconds thinking, decisions) by seat


@dataclass
class BotRecord:
    games: int = 0
    wins: float = 0.0
    seconds: float = 0.0
    decisions: int = 0
    mu: float = 25.0
    sigma: float = 25.0 / 3

    def to_json(self) -> dict[str, Any]:
        lo, hi = wilson(self.wins, self.games)
        return {
            "games": self.games,
            "wins": round(self.wins, 3),
            "win_rate": round(self.wins / self.games, 4) if self.games else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
            "rating": round(self.mu, 2),
            "rating_sigma": round(self.sigma, 2),
            "ms_per_decision": round(1000 * self.seconds / self.decisions, 2)
            if self.decisions
            else 0.0,
        }


@dataclass
class ArenaReport:
    game: str
    players: int
    options: dict[str, Any]
    levels: list[str]
    seed: int
    games: int = 0
    seconds: float = 0.0
    bots: dict[str, BotRecord] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "lineup": self.levels,
            "seed": self.seed,
            "games": self.games,
            "parity": round(1 / self.players, 4),
            "bots": {name: record.to_json() for name, record in self.bots.items()},
            "seconds": round(self.seconds, 2),
        }


class _Timed:
    """A bot wrapper that keeps the time its bot spends choosing."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.seconds = 0.0
        self.decisions = 0

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        started = time.perf_counter()
        action = self.bot.choose(view, legal)
        self.seconds += time.perf_counter() - started
        self.decisions += 1
        return action


def play_game(
    name: str, players: int, options: dict[str, Any], levels: list[str], seed: int, index: int
) -> GameResult:
    """Game `index` of an arena run (module level, so worker processes can run it)."""
    seats = lineup(levels, index)
    timed: list[_Timed] = []
    state = play_one(
        get_game(name), players, options, seats, f"{seed}/{index}", _wrap(timed), imports=True
    )
    moves = sum(1 for entry in state.history if hasattr(entry, "seat"))
    decisions = tuple((seats[s], t.seconds, t.decisions) for s, t in enumerate(timed))
    return GameResult(index, tuple(seats), tuple(state.winners()), moves, decisions)


def _wrap(timed: list[_Timed]) -> Callable[[Any], Any]:
    def wrap(bot: Any) -> Any:
        wrapper = _Timed(bot)
        timed.append(wrapper)
        return wrapper

    return wrap


def _play_chunk(
    name: str,
    players: int,
    options: dict[str, Any],
    levels: list[str],
    seed: int,
    indexes: list[int],
) -> list[GameResult]:
    return [play_game(name, players, options, levels, seed, i) for i in indexes]


def results(
    name: str,
    players: int,
    options: dict[str, Any],
    levels: list[str],
    games: int,
    seed: int,
    jobs: int = 1,
    ray: str | None = None,
    first: int = 0,
) -> Iterator[GameResult]:
    """Every game's result, in no particular order, from `jobs` processes, or from the tasks of
    a Ray cluster at address `ray` (`local`: Ray on this machine). The games are those numbered
    `first` to `first + games - 1` (game i is fixed by the seed `seed/i`)."""
    if ray is not None:
        from campfire.bots.match import chunks as runs
        from campfire.bots.match import on_ray

        calls = [
            (name, players, options, levels, seed, [first + i for i in chunk])
            for chunk in runs(games, 16)
        ]
        for chunk_results in on_ray(ray, _play_chunk, calls):
            yield from chunk_results
        return
    if jobs <= 1:
        for i in range(first, first + games):
            yield play_game(name, players, options, levels, seed, i)
        return
    # small chunks keep the progress bar moving and the processes evenly loaded
    size = max(1, min(8, games // (jobs * 8)))
    end = first + games
    chunks = [list(range(start, min(end, start + size))) for start in range(first, end, size)]
    with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as pool:
        futures = [
            pool.submit(_play_chunk, name, players, options, levels, seed, chunk)
            for chunk in chunks
        ]
        from concurrent.futures import as_completed

        for future in as_completed(futures):
            yield from future.result()


def tally(report: ArenaReport, finished: list[GameResult]) -> ArenaReport:
    """Fill `report` from the games, in game order (ratings depend on the order)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    bots = report.bots
    for name in report.levels:
        bots.setdefault(name, BotRecord(mu=model.mu, sigma=model.sigma))
    for result in sorted(finished, key=lambda r: r.index):
        won = set(result.winners)
        share = 1 / len(won) if won else 0.0
        for seat, (name, seconds, decisions) in enumerate(result.decisions):
            record = bots[name]
            record.games += 1
            record.seconds += seconds
            record.decisions += decisions
            if seat in won:
                record.wins += share
        if not won:
            continue
        teams = [[model.rating(mu=bots[n].mu, sigma=bots[n].sigma)] for n in result.seats]
        ranks = [1.0 if seat in won else 2.0 for seat in range(len(result.seats))]
        rated = model.rate(teams, ranks=ranks)
        # a bot in several seats gets the mean of its seats' new ratings
        by_name: dict[str, list[tuple[float, float]]] = {}
        for name, team in zip(result.seats, rated, strict=True):
            by_name.setdefault(name, []).append((team[0].mu, team[0].sigma))
        for name, values in by_name.items():
            bots[name].mu = sum(mu for mu, _ in values) / len(values)
            bots[name].sigma = sum(sigma for _, sigma in values) / len(values)
    report.games = len(finished)
    return report


def run_arena(
    name: str,
    players: int,
    levels: list[str],
    games: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    ray: str | None = None,
    first: int = 0,
) -> ArenaReport:
    """Play `games` games and report on every bot; `progress` hears of each finished game.
    `ray` spreads the games over a Ray cluster (see `campfire.bots.match.on_ray`) instead of
    `jobs` local processes; the report is the same either way. `first` numbers the first game
    (default 0): a run from game 100 on extends one of 100 games with new ones."""
    options = dict(options or {})
    started = time.perf_counter()
    finished: list[GameResult] = []
    for result in results(name, players, options, levels, games, seed, jobs, ray, first):
        finished.append(result)
        if progress is not None:
            progress(len(finished))
    report = ArenaReport(name, players, options, list(levels), seed)
    tally(report, finished)
    report.seconds = time.perf_counter() - started
    return report


def plot(report: ArenaReport, path: str) -> None:
    """Win rates with their 95% intervals, and the parity line, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(report.bots)
    rates = [report.bots[n].wins / max(1, report.bots[n].games) for n in names]
    intervals = [wilson(report.bots[n].wins, report.bots[n].games) for n in names]
    below = [r - lo for r, (lo, _) in zip(rates, intervals, strict=True)]
    above = [hi - r for r, (_, hi) in zip(rates, intervals, strict=True)]
    figure, axes = plt.subplots(figsize=(1.6 + 1.4 * len(names), 3.6))
    axes.bar(names, rates, yerr=[below, above], capsize=6, color="#d9822b")
    axes.axhline(1 / report.players, color="grey", linestyle="--", label="parity")
    axes.set_ylim(0, 1)
    axes.set_ylabel("win rate (95% interval)")
    title = f"{get_game(report.game).title}, {report.players} players, {report.games} games"
    if report.options:
        title += "\n" + ", ".join(f"{k}={v}" for k, v in report.options.items())
    axes.set_title(title, fontsize=10)
    axes.legend(loc="upper right", fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
