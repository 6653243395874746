"""Extra terminal commands some games offer: Pow Wow's `odds`, a coach for the person playing."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from campfire.i18n import N_, error_text
from campfire.kernel.state import Game
from campfire.terminal.session import Command, Session

#: the terminal's `odds` command: its line in `help`, and its usage
ODDS_HELP = N_("odds [GUESS]       the chances of the total, blind and as the bids read (a coach)")
ODDS_USAGE = N_("'odds' takes nothing or one guess, as in 'odds 25'")


def _refused(said: str) -> Text:
    return Text.assemble(("✗", "red"), " ", said)


def _powwow_odds(session: Session, seat: int, args: list[str]) -> None:
    from campfire.games.powwow.coach import coach, render

    guess: int | None = None
    if len(args) > 1 or (args and not args[0].lstrip("-").isdigit()):
        session.console.print(_refused(session.tr.gettext(ODDS_USAGE)), highlight=False)
        return
    if args:
        guess = int(args[0])
    try:
        data = coach(session.state.view(seat), guess=guess)
    except ValueError as error:
        session.console.print(_refused(error_text(error, session.tr)), highlight=False)
        return
    for line in render(data, session.tr):
        session.console.print(line, highlight=False)


def terminal_commands(game: Game[Any]) -> dict[str, Command]:
    if game.name == "powwow":
        return {"odds": (ODDS_HELP, _powwow_odds)}
    return {}
