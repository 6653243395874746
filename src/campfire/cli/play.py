"""`campfire play`: a game at the terminal against bots, or hot-seat."""

from __future__ import annotations

import random
import sys
from typing import Annotated

import typer
from rich.console import Console

from campfire.bots import make_bot, seat_levels
from campfire.cli.common import fail, game_named, options_from
from campfire.kernel.errors import OptionError, RecordError
from campfire.kernel.records import Record
from campfire.terminal import Session

HUMAN = "human"
#: the bot levels both games offer, weakest first (a test checks them against the games')
LEVELS = ("random", "easy", "medium", "hard", "expert")
#: seconds between bot moves at a terminal, long enough to read each one
DEFAULT_PACE = 1.2


def play(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="powwow or wakatanka")],
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    seat: Annotated[list[int] | None, typer.Option(help="your seat (repeat for hot-seat)")] = None,
    bots: Annotated[
        str,
        typer.Option(
            help="levels of the other seats in seat order, or one for all: "
            f"{', '.join(LEVELS)}, or {HUMAN} (another person at this keyboard)"
        ),
    ] = "random",
    seed: Annotated[int | None, typer.Option(help="seed for the shuffles and the bots")] = None,
    option: Annotated[list[str] | None, typer.Option(help="game option key=value")] = None,
    resume: Annotated[str | None, typer.Option(help="continue a saved game record")] = None,
    pace: Annotated[
        float | None,
        typer.Option(
            help="seconds to wait after each bot move (default 1.2 at a terminal, 0 when"
            " commands come from a pipe or file)",
            min=0,
        ),
    ] = None,
) -> None:
    """Play at the terminal. Commands are read one per line, so a game can be scripted."""
    game = game_named(game_name)
    rng = random.Random(seed)
    if resume is not None:
        try:
            record = Record.load(resume)
            if record.game != game.name:
                fail(f"{resume} is a {record.game} game, not {game.name}")
            state = record.replay()
        except RecordError as error:
            fail(f"cannot resume {resume}: {error}")
    else:
        try:
            state = game.new_state(players, options_from(option, game.default_options()))
        except OptionError as error:
            fail(str(error))
    n = state.players
    humans = set(seat if seat else [0])
    for s in humans:
        if not 0 <= s < n:
            fail(f"there is no seat {s} with {n} players")
    others = [s for s in range(n) if s not in humans]
    try:
        levels = seat_levels(bots, len(others), game, extra=(HUMAN,)) if others else []
    except ValueError as error:
        fail(str(error))
    seat_bots = {}
    bot_levels = {}
    for s, level in zip(others, levels, strict=True):
        if level == HUMAN:
            humans.add(s)
        else:
            seat_bots[s] = make_bot(game, level, rng.randrange(2**32))
            bot_levels[s] = level
    interactive = sys.stdin.isatty()
    if pace is None:
        pace = DEFAULT_PACE if interactive else 0.0
    console = Console(highlight=False, soft_wrap=True)  # narration wraps itself between words

    def read_line(prompt: str) -> str | None:
        if interactive:
            try:
                return console.input(prompt)
            except EOFError:
                return None
        line = sys.stdin.readline()
        if not line:
            return None
        console.print(f"{prompt}{line.rstrip()}", markup=False)
        return line

    from campfire.cli.extensions import terminal_commands

    session = Session(
        state,
        humans,
        seat_bots,
        rng,
        console,
        read_line,
        interactive,
        terminal_commands(game),
        pace=pace,
        levels=bot_levels,
    )
    raise SystemExit(session.run())


def register(app: typer.Typer) -> None:
    app.command("play")(play)
