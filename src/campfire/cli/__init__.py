"""The `campfire` command."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="campfire",
    help="Pow Wow and Waka Tanka: play, replay, simulate.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _register() -> None:
    from campfire.cli import arena, odds, play, replay, serve, simulate

    for module in (replay, simulate, play, serve, arena, odds):
        module.register(app)


def main() -> None:
    _register()
    app()
