"""`campfire play`: a game at the terminal against bots, or hot-seat."""

from __future__ import annotations

import json
import random
import sys
from typing import Annotated, Any

import typer
from rich.console import Console

from campfire.bots import make_bot, seat_levels
from campfire.cli.common import chosen, fail, fail_error, game_named, options_from, spoken
from campfire.i18n import N_
from campfire.kernel.errors import OptionError, RecordError
from campfire.kernel.records import Record
from campfire.kernel.state import Game, State
from campfire.terminal import Session
from campfire.terminal.keyboard import typed_ahead
from campfire.terminal.session import save_whole

HUMAN = "human"
#: the bot levels both games offer, weakest first (a test checks them against the games')
LEVELS = ("random", "easy", "medium", "hard", "expert")
#: seconds between bot moves at a terminal, long enough to read each one
DEFAULT_PACE = 1.2


def play(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help=N_("powwow or wakatanka"))],
    players: Annotated[int | None, typer.Option(help=N_("number of players"))] = None,
    seat: Annotated[
        list[int] | None, typer.Option(help=N_("your seat (repeat for hot-seat)"))
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "levels of the other seats in seat order, or one for all: random, easy,"
                " medium, hard, expert, or human (another person at this keyboard);"
                " default random, or with --resume the record's"
            )
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help=N_("seed for the shuffles and the bots"))] = None,
    option: Annotated[list[str] | None, typer.Option(help=N_("game option key=value"))] = None,
    resume: Annotated[str | None, typer.Option(help=N_("continue a saved game record"))] = None,
    record: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help=N_("write the game's record to FILE after every move and at the end"),
        ),
    ] = None,
    pace: Annotated[
        float | None,
        typer.Option(
            help=N_(
                "seconds to wait after each bot move (default 1.2 at a terminal, 0 when"
                " commands come from a pipe or file)"
            ),
            min=0,
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "the language of the table and its narration: en, fr, de, it, es"
                " (default from LC_ALL, LC_MESSAGES or LANG, else en)"
            )
        ),
    ] = None,
) -> None:
    """Play at the terminal. Commands are read one per line, so a game can be scripted."""
    lang = chosen(lang).lang
    game = game_named(game_name)
    rng = random.Random(seed)
    recorded: list[str | None] | None = None  # the record's bot level by seat, if it says
    if resume is not None:
        state, recorded = resumed(game, resume, players, option)
    else:
        try:
            state = game.new_state(players, options_from(option, game.default_options()))
        except OptionError as error:
            fail_error(error)
    n = state.players
    if recorded is not None:
        seated = seated_as_recorded(game, recorded, seat, bots)
    else:
        seated = seated_from_flags(game, n, seat, bots or "random")
    humans = {s for s, level in enumerate(seated) if level is None}
    seat_bots = {}
    bot_levels = {}
    for s, level in enumerate(seated):
        if level is not None:
            seat_bots[s] = make_bot(game, level, rng.randrange(2**32))
            bot_levels[s] = level
    interactive = sys.stdin.isatty()
    if pace is None:
        pace = DEFAULT_PACE if interactive else 0.0
    # at a terminal every line wraps between words at its width (Rich measures it each time,
    # so a resized window is followed); into a pipe or file lines are left whole
    console = Console(highlight=False, soft_wrap=not sys.stdout.isatty())

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
        typed_ahead=(lambda: typed_ahead(sys.stdin.fileno())) if interactive else None,
        record_to=record,
        lang=lang,
    )
    if record is not None:
        try:
            save_whole(session.record(), record)  # now, so that a bad FILE stops us at once
        except OSError as error:
            fail(
                N_("cannot write the record to {file}: {reason}"),
                file=record,
                reason=error.strerror,
            )
    raise SystemExit(session.run())


def resumed(
    game: Game[Any], path: str, players: int | None, option: list[str] | None
) -> tuple[State[Any, Any], list[str | None] | None]:
    """The saved game and its bot levels by seat (None where the record does not say);
    `--players` and `--option` may repeat the record but not contradict it."""
    try:
        record = Record.load(path)
        if record.game != game.name:
            fail(
                N_("{file} is a {game} game, not {wanted}"),
                file=path,
                game=record.game,
                wanted=game.name,
            )
        state = record.replay()
    except RecordError as error:
        fail(N_("cannot resume {file}: {reason}"), file=path, reason=error)
    if players is not None and players != record.players:
        fail(
            N_("--players {players} conflicts with {file}, a game of {n} players"),
            players=players,
            file=path,
            n=record.players,
        )
    given = options_from(option, game.default_options())
    try:
        game.new_state(record.players, given)  # refuses unknown options and bad values
    except OptionError as error:
        fail_error(error)
    kept = state.options.model_dump()
    for key, value in given.items():
        if value != kept[key]:
            fail(
                N_("--option {key}={value} conflicts with {file}, played with {key}={kept}"),
                key=key,
                value=json.dumps(value),
                file=path,
                kept=json.dumps(kept[key]),
            )
    if record.seats is None:
        return state, None
    return state, [entry["bot"] for entry in record.seats]


def seated_as_recorded(
    game: Game[Any], recorded: list[str | None], seat: list[int] | None, bots: str | None
) -> list[str | None]:
    """The record's seats: its bots at their levels, a person wherever it had one. `--seat`
    and `--bots` may say the same, not something else."""
    known = game.bot_levels()
    for s, level in enumerate(recorded):
        if level is not None and level not in known:
            fail(
                N_(
                    "the record's seat {seat} was played by a bot of level {level}, which"
                    " {game} does not have (levels: {levels})"
                ),
                seat=s,
                level=repr(level),
                game=game.title,
                levels=", ".join(known),
            )
    people = [s for s, level in enumerate(recorded) if level is None]
    if seat and sorted(set(seat)) != people:
        if people:
            fail(
                N_("--seat {seats} conflicts with the record, where people sat at {people}"),
                seats=" ".join(map(str, sorted(set(seat)))),
                people=", ".join(map(str, people)),
            )
        fail(
            N_("--seat {seats} conflicts with the record, where people sat at no seat"),
            seats=" ".join(map(str, sorted(set(seat)))),
        )
    if not people:
        fail(N_("in the record every seat is a bot's: there is no seat to play"))
    if bots is not None and seated_from_flags(game, len(recorded), people, bots) != recorded:
        tr = spoken()
        said = ", ".join(
            f"{tr.gettext('seat {seat}', seat=s)}: {level or HUMAN}"
            for s, level in enumerate(recorded)
        )
        fail(N_("--bots {bots} conflicts with the record's seats ({seats})"), bots=bots, seats=said)
    return recorded


def seated_from_flags(
    game: Game[Any], n: int, seat: list[int] | None, bots: str
) -> list[str | None]:
    """A bot level for each seat from `--seat` and `--bots`, None for a person."""
    humans = set(seat if seat else [0])
    for s in humans:
        if not 0 <= s < n:
            fail(N_("there is no seat {seat} with {n} players"), seat=s, n=n)
    others = [s for s in range(n) if s not in humans]
    try:
        levels = seat_levels(bots, len(others), game, extra=(HUMAN,)) if others else []
    except ValueError as error:
        fail_error(error)
    seated: list[str | None] = [None] * n
    for s, level in zip(others, levels, strict=True):
        seated[s] = None if level == HUMAN else level
    return seated


def register(app: typer.Typer) -> None:
    app.command("play")(play)
