"""The `campfire` command."""

from __future__ import annotations

import inspect
import sys
from typing import Annotated, Any

import typer

from campfire.i18n import N_

app = typer.Typer(
    name="campfire",
    help=N_("Pow Wow and Waka Tanka: play, replay, review, simulate."),
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        from campfire import __version__

        typer.echo(f"campfire {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help=N_("print the version and exit")
        ),
    ] = False,
) -> None:
    """Pow Wow and Waka Tanka: play, replay, simulate."""


def _register() -> None:
    from campfire.cli import arena, odds, play, replay, review, serve, simulate

    for module in (replay, simulate, play, serve, arena, odds, review):
        module.register(app)


#: each command's help (its docstring) marked for the catalogues: `--help` is told in the
#: language of `--lang` or LC_ALL/LANG (a test checks that these are the docstrings)
COMMAND_HELP = (
    N_("Play at the terminal. Commands are read one per line, so a game can be scripted."),
    N_(
        "Replay a game record: narrate it, or print the position it reaches as JSON (the JSON\n"
        "is the same in every language: only the narration and the errors are translated)."
    ),
    N_("Play bot games and summarise them: wins per seat, length, speed."),
    N_("Play bot games with the bots rotated through the seats, and report on each bot."),
    N_(
        "The exact distribution of the round's total as one seat sees it at the end of a"
        " record,\nand the chance that the standing guess (and the guesses near it) holds:"
        " blind, and as the\n"
        "others' bidding reads (what they did with this seat's feathers in view)."
    ),
    N_(
        "Judge every move of a finished game as the top level would: labels, the better move\n"
        "where one was lost, accuracy per seat. `--json` is the same in every language (its notes\n"
        "English); the words are told in `--lang`."
    ),
    N_("Serve the lobby and tables at http://HOST:PORT (tables survive a restart)."),
    N_("The server's database: create or upgrade its layout."),
    N_("Create the tables, or bring an older database to the newest layout (nothing is lost)."),
)


def asked_language(argv: list[str]) -> str:
    """The language the command line asks for (`--lang xx` or `--lang=xx`), else LC_ALL/LANG:
    `--help` is printed before the options are read."""
    from campfire.i18n import from_environment, language_of

    for i, arg in enumerate(argv):
        value = None
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        if value is not None:
            return language_of(value) or "en"
    return from_environment()


def told_in(command: Any, lang: str) -> None:
    """Every help text of `command` and its sub-commands in `lang` (those the catalogues have)."""
    from campfire.i18n import translator

    tr = translator(lang)
    if command.help:
        command.help = tr.gettext(inspect.cleandoc(command.help))
    for param in command.params:
        shown = getattr(param, "help", None)
        if isinstance(shown, str) and shown:
            param.help = tr.gettext(shown)
    for sub in getattr(command, "commands", {}).values():
        told_in(sub, lang)


def main() -> None:
    _register()
    command = typer.main.get_command(app)
    lang = asked_language(sys.argv[1:])
    if lang != "en":
        told_in(command, lang)
    command(prog_name="campfire")
