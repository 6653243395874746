"""`campfire replay RECORD.json [--json]`: the position a record reaches, or its story."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from campfire.cli.common import Lang, chosen, fail, fail_error
from campfire.i18n import N_, Translator
from campfire.kernel.errors import RecordError
from campfire.kernel.records import Record
from campfire.kernel.state import State


def position(record: Record, state: State[Any, Any]) -> dict[str, Any]:
    """The JSON object `replay --json` prints (see the record format)."""
    return {
        "game": state.game.name,
        "terminal": state.is_terminal,
        "winners": state.winners(),
        "to_move": state.to_move,
        **state.game.summary(state),
        "moves_applied": len(record.moves),
    }


def replay(
    record_file: Annotated[
        str, typer.Argument(metavar="RECORD.json", help=N_("a format-1 game record"))
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help=N_("print the position reached as JSON"))
    ] = False,
    lang: Lang = None,
) -> None:
    """Replay a game record: narrate it, or print the position it reaches as JSON (the JSON
    is the same in every language: only the narration and the errors are translated)."""
    tr = chosen(lang)
    try:
        record = Record.load(record_file)
        if as_json:
            state = record.replay()
            print(json.dumps(position(record, state), indent=1))
            return
        steps = record.steps()
    except RecordError as error:
        fail_error(error)
    except (RecursionError, MemoryError):
        fail(TOO_DEEP)
    narrate(record, steps, tr)


#: a record Python cannot read whole (said by replay, odds and review)
TOO_DEEP = N_("the record is nested too deeply or too large to read")


def narrate(record: Record, steps: list[Any], tr: Translator | None = None) -> None:
    from campfire.i18n import translator
    from campfire.kernel.registry import get_game

    tr = translator("en") if tr is None else tr
    game = get_game(record.game)
    print(
        tr.ngettext(
            "{game}, {n} player, options {options}",
            "{game}, {n} players, options {options}",
            record.players,
            game=game.title,
            options=json.dumps(record.options),
        )
    )
    for _, events in steps:
        for event in events:
            line = game.describe(event, None, tr.lang)
            if line:
                print("  " + line)
    state = record.replay()
    entries = len(record.moves)
    if state.is_terminal:
        won = state.winners()
        winners = tr.join(tr.gettext("seat {seat}", seat=s) for s in won)
        finished = tr.ngettext("Finished after {n} entry.", "Finished after {n} entries.", entries)
        named = tr.ngettext("Winner: {winners}.", "Winners: {winners}.", len(won), winners=winners)
        print(f"{finished} {named}")
    elif state.to_move is None:
        print(
            tr.ngettext(
                "Unfinished after {n} entry: a chance outcome is due.",
                "Unfinished after {n} entries: a chance outcome is due.",
                entries,
            )
        )
    else:
        print(
            tr.ngettext(
                "Unfinished after {n} entry: seat {seat} is to move.",
                "Unfinished after {n} entries: seat {seat} is to move.",
                entries,
                seat=state.to_move,
            )
        )


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
