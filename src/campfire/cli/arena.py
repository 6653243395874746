"""`campfire arena`: bots against bots, seats rotated, win rates with intervals and ratings."""

from __future__ import annotations

import json
import os
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from campfire.bots.arena import ArenaReport, run_arena
from campfire.bots.match import RayError
from campfire.cli.common import Lang, RayAddress, bot_games, chosen, fail, fail_error
from campfire.i18n import N_, Translator


def arena(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help=N_("powwow or wakatanka"))],
    players: Annotated[int | None, typer.Option(help=N_("number of players"))] = None,
    bots: Annotated[
        str,
        typer.Option(
            help=N_(
                "one level per seat, e.g. hard,medium,medium,medium; module:factory for a bot"
                " of your own"
            )
        ),
    ] = "medium",
    games: Annotated[int, typer.Option(help=N_("how many games to play"))] = 100,
    seed: Annotated[int, typer.Option(help=N_("seed of the whole run"))] = 0,
    option: Annotated[list[str] | None, typer.Option(help=N_("game option key=value"))] = None,
    jobs: Annotated[
        int | None, typer.Option(help=N_("worker processes (default: one per CPU)"))
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("print the report as JSON"))] = False,
    plot: Annotated[
        str | None, typer.Option(help=N_("draw the win rates with their intervals to FILE.png"))
    ] = None,
    ray: RayAddress = None,
    lang: Lang = None,
) -> None:
    """Play bot games with the bots rotated through the seats, and report on each bot."""
    tr = chosen(lang)
    game, n, options, levels = bot_games(game_name, players, option, bots, games, imports=True)
    workers = (os.cpu_count() or 1) if jobs is None else jobs
    if workers < 1:
        fail(N_("--jobs must be at least 1"))
    workers = min(workers, games)
    if plot is not None:
        if not plot.lower().endswith(".png"):
            fail(
                N_("--plot writes a PNG file: give a name ending in .png, not {file}"),
                file=repr(plot),
            )
        folder = os.path.dirname(os.path.abspath(plot))
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            fail(
                N_("cannot write the plot to {file}: no writable folder {folder}"),
                file=plot,
                folder=folder,
            )
    if ray is not None:
        from campfire.bots.match import check_ray_address

        try:
            check_ray_address(ray)
        except RayError as error:
            fail_error(error)
    errors = Console(stderr=True)
    with Progress(
        TextColumn(tr.gettext("{game} arena", game=game.title)),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=errors,
        transient=True,
        disable=not errors.is_terminal,
    ) as bar:
        task = bar.add_task("games", total=games)
        try:
            report = run_arena(
                game.name,
                n,
                levels,
                games,
                seed,
                options,
                workers,
                progress=lambda done: bar.update(task, completed=done),
                ray=ray,
            )
        except RayError as error:
            fail_error(error)
    if plot is not None:
        from campfire.bots.arena import plot as draw

        draw(report, plot)
    if as_json:
        print(json.dumps(report.to_json(), indent=1))
        return
    show(report, game.title, tr)


def show(report: ArenaReport, title: str, tr: Translator | None = None) -> None:
    from campfire.i18n import translator

    tr = translator("en") if tr is None else tr
    _ = tr.gettext
    console = Console()
    data = report.to_json()
    options = ", ".join(f"{k}={v}" for k, v in report.options.items())
    games = tr.ngettext("{n} game", "{n} games", report.games)
    players = tr.ngettext("{n} player", "{n} players", report.players)
    head = _("{game}: {games}, {players}", game=title, games=games, players=players)
    table = Table(title=head + (f" ({options})" if options else ""))
    table.add_column(_("bot"))
    table.add_column(_("games"), justify="right")
    table.add_column(_("wins"), justify="right")
    table.add_column(_("win rate"), justify="right")
    table.add_column(_("95% CI"), justify="right")
    table.add_column(_("rating"), justify="right")
    table.add_column(_("ms/turn"), justify="right")
    for name, row in data["bots"].items():
        lo, hi = row["ci95"]
        wins = row["wins"]
        table.add_row(
            tr.level(name),
            tr.number(row["games"]),
            tr.number(wins),
            tr.percent(row["win_rate"], 1),
            f"{tr.percent(lo)}–{tr.percent(hi)}",
            f"{tr.decimal(row['rating'], 1)} ± {tr.decimal(row['rating_sigma'], 1)}",
            tr.decimal(row["ms_per_decision"], 1),
        )
    console.print(table)
    console.print(
        _(
            "Lineup {lineup}, rotated through the seats; a bot's games count every seat it"
            " held. Parity {parity}. {seconds} s.",
            lineup=",".join(report.levels),
            parity=tr.percent(1 / report.players, 1),
            seconds=tr.decimal(report.seconds, 1),
        )
    )


def register(app: typer.Typer) -> None:
    app.command("arena")(arena)
