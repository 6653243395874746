"""`campfire simulate`: bot games, a summary, and optionally every record."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from campfire.bots.match import (
    GameSummary,
    RayError,
    check_ray_address,
    chunks,
    on_ray,
    play_games,
)
from campfire.cli.common import Lang, RayAddress, bot_games, chosen, fail, fail_error
from campfire.i18n import N_, Translator
from campfire.kernel.records import Record
from campfire.kernel.state import Game


def simulate(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help=N_("powwow or wakatanka"))],
    players: Annotated[int | None, typer.Option(help=N_("number of players"))] = None,
    games: Annotated[int, typer.Option(help=N_("how many games to play"))] = 100,
    seed: Annotated[int, typer.Option(help=N_("seed of the whole run"))] = 0,
    bots: Annotated[
        str, typer.Option(help=N_("one level for all seats, or one per seat"))
    ] = "random",
    records: Annotated[Path | None, typer.Option(help=N_("write each game's record here"))] = None,
    option: Annotated[list[str] | None, typer.Option(help=N_("game option key=value"))] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("print the summary as JSON"))] = False,
    ray: RayAddress = None,
    lang: Lang = None,
) -> None:
    """Play bot games and summarise them: wins per seat, length, speed."""
    tr = chosen(lang)
    game, n, options, levels = bot_games(game_name, players, option, bots, games)
    if ray is not None:
        try:
            check_ray_address(ray)
        except RayError as error:
            fail_error(error)
    if records is not None:
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            fail(
                N_("cannot write records to {folder}: {reason}"),
                folder=str(records),
                reason=error.strerror,
            )
    wins: Counter[int] = Counter()
    lengths: list[int] = []
    tallies: list[dict[str, int]] = []
    started = time.perf_counter()
    keep = records is not None
    if ray is None:  # game by game, each record written as soon as its game ends
        batches: Iterable[list[GameSummary]] = (
            play_games(game.name, n, options, levels, seed, [i], keep) for i in range(games)
        )
    else:  # the same games as Ray tasks, merged in game order
        calls = [(game.name, n, options, levels, seed, chunk, keep) for chunk in chunks(games, 16)]
        batches = on_ray(ray, play_games, calls)
    i = 0
    try:
        for batch in batches:
            for winners, moves, tally, record in batch:
                wins.update(winners)
                lengths.append(moves)
                tallies.append(tally)
                if records is not None and record is not None:
                    path = records / f"{game.name}-{seed}-{i:05d}.json"
                    Record.from_json(record).save(path)
                i += 1
    except RayError as error:
        fail_error(error)
    elapsed = time.perf_counter() - started
    summary = {
        "game": game.name,
        "players": n,
        "options": options,
        "bots": levels,
        "games": games,
        "wins": [wins[s] for s in range(n)],
        "moves": {"mean": sum(lengths) / games, "min": min(lengths), "max": max(lengths)},
        **{key: sum(t[key] for t in tallies) / games for key in (tallies[0] if tallies else {})},
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1),
    }
    if as_json:
        print(json.dumps(summary, indent=1))
        return
    show(game, summary, tr)


#: the per-game tallies a summary may have, in words
TALLIES = {
    "rounds": N_("rounds per game: {value}"),
    "calls": N_("calls per game: {value}"),
    "spells": N_("spells per game: {value}"),
}


def show(game: Game[Any], summary: dict[str, Any], tr: Translator) -> None:
    _ = tr.gettext
    console = Console()
    games = tr.ngettext("{n} game", "{n} games", summary["games"])
    players = tr.ngettext("{n} player", "{n} players", summary["players"])
    table = Table(
        title=_("{game}: {games}, {players}", game=game.title, games=games, players=players)
    )
    table.add_column(_("seat"), justify="right")
    table.add_column(_("bot"))
    table.add_column(_("wins"), justify="right")
    table.add_column(_("win rate"), justify="right")
    for seat, (level, won) in enumerate(zip(summary["bots"], summary["wins"], strict=True)):
        table.add_row(
            str(seat), tr.level(level), tr.number(won), tr.percent(won / summary["games"], 1)
        )
    console.print(table)
    moves = summary["moves"]
    console.print(
        _(
            "moves per game: {mean} (from {least} to {most})",
            mean=tr.decimal(moves["mean"], 1),
            least=tr.number(moves["min"]),
            most=tr.number(moves["max"]),
        )
    )
    for key, value in summary.items():
        if key in TALLIES:
            console.print(_(TALLIES[key], value=tr.decimal(value, 1)))
    console.print(
        _(
            "{rate} games/s ({seconds} s in all)",
            rate=tr.decimal(summary["games_per_second"], 1),
            seconds=tr.decimal(summary["seconds"], 3),
        )
    )


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate)
