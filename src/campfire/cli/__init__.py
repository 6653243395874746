"""The `campfire` command."""

from __future__ import annotations

from typing import Annotated

import typer

app = typer.Typer(
    name="campfire",
    help="Pow Wow and Waka Tanka: play, replay, review, simulate.",
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
            "--version", callback=_version, is_eager=True, help="print the version and exit"
        ),
    ] = False,
) -> None:
    """Pow Wow and Waka Tanka: play, replay, simulate."""


def _register() -> None:
    from campfire.cli import arena, odds, play, replay, review, serve, simulate

    for module in (replay, simulate, play, serve, arena, odds, review):
        module.register(app)


def main() -> None:
    _register()
    app()
