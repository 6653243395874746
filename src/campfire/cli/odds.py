"""`campfire odds RECORD.json --seat S`: the round's total as seat S sees it (Pow Wow)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from campfire.cli.common import Lang, chosen, fail, fail_error
from campfire.cli.replay import TOO_DEEP
from campfire.i18n import N_
from campfire.kernel.errors import RecordError
from campfire.kernel.records import Record


def odds(
    record_file: Annotated[
        str, typer.Argument(metavar="RECORD.json", help=N_("a Pow Wow record, finished or not"))
    ],
    seat: Annotated[int, typer.Option(help=N_("whose point of view"))],
    around: Annotated[
        int, typer.Option(help=N_("guesses shown either side of the standing one"))
    ] = 3,
    as_json: Annotated[bool, typer.Option("--json", help=N_("print the odds as JSON"))] = False,
    guess: Annotated[
        int | None, typer.Option(help=N_("centre P(total ≥ g) on this guess, not the standing one"))
    ] = None,
    lang: Lang = None,
) -> None:
    """The exact distribution of the round's total as one seat sees it at the end of a record,
    and the chance that the standing guess (and the guesses near it) holds: blind, and as the
    others' bidding reads (what they did with this seat's feathers in view)."""
    tr = chosen(lang)
    try:
        record = Record.load(record_file)
        state = record.replay()
    except RecordError as error:
        fail_error(error)
    except (RecursionError, MemoryError):
        fail(TOO_DEEP)
    if record.game != "powwow":
        fail(
            N_("odds are for Pow Wow records; {file} is a {game} game"),
            file=record_file,
            game=record.game,
        )
    if not 0 <= seat < state.players:
        fail(N_("there is no seat {seat} with {n} players"), seat=seat, n=state.players)
    if around < 0:
        fail(N_("--around must be 0 or more"))
    from campfire.games.powwow.coach import coach, render

    try:
        data = coach(state.view(seat), around, guess)
    except ValueError as error:
        fail_error(error)
    if as_json:
        print(json.dumps(data, indent=1))
        return
    _print(render(data, tr))


def _print(lines: list[Any]) -> None:
    from rich.console import Console

    console = Console(highlight=False)
    for line in lines:
        console.print(line)


def register(app: typer.Typer) -> None:
    app.command("odds")(odds)
