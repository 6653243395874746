"""Extra terminal commands some games offer: Pow Wow's `odds`, a coach for the person playing."""

from __future__ import annotations

from typing import Any

from campfire.kernel.state import Game
from campfire.terminal.session import Command, Session


def _powwow_odds(session: Session, seat: int, args: list[str]) -> None:
    from campfire.games.powwow.odds import render, report

    if args:
        session.console.print("[red]✗[/] 'odds' takes nothing after it")
        return
    try:
        data = report(session.state.view(seat))
    except ValueError as error:
        session.console.print(f"[red]✗[/] {error}", highlight=False)
        return
    for line in render(data):
        session.console.print(line, highlight=False)


def terminal_commands(game: Game[Any]) -> dict[str, Command]:
    if game.name == "powwow":
        return {
            "odds": (
                "odds               the exact chances of the total as you see it (a coach)",
                _powwow_odds,
            )
        }
    return {}
