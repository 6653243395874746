"""`campfire replay RECORD.json [--json]`: the position a record reaches, or its story."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from campfire.cli.common import fail
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
        str, typer.Argument(metavar="RECORD.json", help="a format-1 game record")
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="print the position reached as JSON")
    ] = False,
) -> None:
    """Replay a game record: narrate it, or print the position it reaches as JSON."""
    try:
        record = Record.load(record_file)
        if as_json:
            state = record.replay()
            print(json.dumps(position(record, state), indent=1))
            return
        steps = record.steps()
    except RecordError as error:
        fail(str(error))
    except (RecursionError, MemoryError):
        fail("the record is nested too deeply or too large to read")
    narrate(record, steps)


def narrate(record: Record, steps: list[Any]) -> None:
    from campfire.kernel.registry import get_game

    game = get_game(record.game)
    print(f"{game.title}, {record.players} players, options {json.dumps(record.options)}")
    for _, events in steps:
        for event in events:
            line = game.describe(event, None)
            if line:
                print("  " + line)
    state = record.replay()
    if state.is_terminal:
        winners = ", ".join(f"seat {s}" for s in state.winners())
        print(f"Finished after {len(record.moves)} entries. Winners: {winners}.")
    elif state.to_move is None:
        print(f"Unfinished after {len(record.moves)} entries: a chance outcome is due.")
    else:
        print(f"Unfinished after {len(record.moves)} entries: seat {state.to_move} is to move.")


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
