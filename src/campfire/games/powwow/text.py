"""Pow Wow in a terminal: the table drawn with Rich, and the typed commands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from campfire.games.powwow.actions import AGREE, DISPUTE, REVERSE, Action, Agree, Guess, Reverse
from campfire.games.powwow.feathers import color
from campfire.games.powwow.view import PowwowView
from campfire.kernel.text import UnknownCommand

if TYPE_CHECKING:
    from campfire.games.powwow.game import Powwow

_STYLE = {
    "green": "bold green",
    "blue": "bold blue",
    "red": "bold red",
    "black": "bold white on black",
}

HELP = """\
guess N            announce a total of N, higher than the standing guess (or just N)
dispute            challenge the standing guess: the feathers are counted"""

TOMAHAWK_HELP = """\
guess N extra S    guess N and give seat S an extra feather (tomahawk)
agree              take over the standing guess unchanged (tomahawk)
reverse            flip the direction instead of guessing (tomahawk)"""

RULES = """\
Everyone wears feathers that all the others can see, never their own. In turn, guess the
total of every feather in play (yours too), each guess higher than the last, or dispute the
standing guess: the feathers are counted. If the total is lower than the guess, its owner takes
a buzzard; otherwise the disputer does. Enough buzzards and you are out; the last player in
wins.

Feathers:
  1 2 3 4 5 10 15 20   green: count their value
  0                    blue: counts nothing
  -5 -10               red: take their value off the total
  ?                    black: turns over the top feather of the stack, which counts too
  max=0                black: the highest green feather in play counts 0
  x2                   black: the green feathers count double
  zero                 black: counts 0; after the round all 36 feathers are shuffled again
Table: ▶ whose turn, ● a buzzard taken, · one still to go, ← owns the standing guess."""

TOMAHAWK_RULES = """\
Tomahawks: once a round, instead of a plain guess you may 'agree' (own the standing guess
unchanged), 'reverse' (play turns the other way) or add 'extra S' to a guess (seat S takes one
more feather without looking)."""


def feather_text(code: str | None) -> Text:
    if code is None:
        return Text("▒▒", style="dim")
    label = {"max0": "max=0"}.get(code, code)
    return Text(f" {label} ", style=_STYLE[color(code)])


class PowwowText:
    def __init__(self, game: Powwow) -> None:
        self.game = game

    def render(self, view: PowwowView) -> Any:
        way = "clockwise ↻" if view.direction == 1 else "counter-clockwise ↺"
        head = Text(f"Pow Wow · round {view.round} · play goes {way}", style="bold")
        table = Table(box=None, pad_edge=False, header_style="bold")
        table.add_column("seat")
        table.add_column("feathers")
        table.add_column("buzzards")
        if view.options.tomahawks:
            table.add_column("tomahawk")
        for s in range(view.players):
            name = f"{s}" + (" (you)" if s == view.seat else "")
            if s == view.to_move:
                name = "▶ " + name
            if not view.is_active(s):
                cells: list[Any] = [Text(name, style="dim"), Text("out", style="dim")]
            else:
                feathers = Text()
                for f in view.feathers[s]:
                    feathers.append_text(feather_text(f))
                    feathers.append(" ")
                if s == view.owner and not view.terminal:
                    feathers.append(f" ← owns {view.guess}", style="yellow")
                cells = [name, feathers]
            cells.append(
                "●" * view.buzzards[s] + "·" * max(0, view.options.buzzards - view.buzzards[s])
            )
            if view.options.tomahawks:
                cells.append("ready" if view.tomahawks[s] and view.is_active(s) else "—")
            table.add_row(*cells)
        lines: list[Any] = [head, table]
        if view.terminal:
            pass  # the game is over: no guess stands any more
        elif view.guess is None:
            lines.append(Text("No guess stands yet."))
        else:
            how = " (by agreeing)" if view.agreed else ""
            who = "you" if view.owner == view.seat else f"seat {view.owner}"
            lines.append(Text(f"Standing guess: {view.guess}, owned by {who}{how}."))
        if view.turns and not view.terminal:
            said = ", ".join(
                f"{'you' if s == view.seat else s}: {self.command(a)}" for s, a in view.turns
            )
            lines.append(Text(f"This round — {said}", style="dim"))
        used = Text(f"Used pile ({len(view.used)}): ")
        for f in sorted(view.used, key=_order):
            used.append_text(feather_text(f))
            used.append(" ")
        lines.append(used)
        lines.append(Text(f"Stack: {view.stack_size} feathers face down."))
        return Group(*lines)

    def parse(self, command: str, view: PowwowView) -> Action:
        words = command.lower().split()
        if not words:
            raise ValueError("type a command (help lists them)")
        if _is_number(words[0]):
            words.insert(0, "guess")  # a bare number is a guess: '12' is 'guess 12'
        verb, args = words[0], words[1:]
        if verb in ("guess", "g"):
            if not args:
                raise ValueError("guess needs a number, e.g. 'guess 12'")
            value = _number(args[0], "the guess")
            if len(args) == 1:
                return Guess(value)
            if len(args) == 3 and args[1] in ("extra", "x"):
                return Guess(value, _number(args[2], "the seat for the extra feather"))
            raise ValueError("write 'guess N' or 'guess N extra SEAT'")
        simple: dict[str, Action] = {
            "dispute": DISPUTE,
            "d": DISPUTE,
            "agree": AGREE,
            "reverse": REVERSE,
        }
        if verb in simple:
            if args:
                raise ValueError(f"'{verb}' takes nothing after it")
            return simple[verb]
        raise UnknownCommand(verb)

    def command(self, action: Action) -> str:
        if isinstance(action, Guess):
            if action.extra_feather_to is None:
                return f"guess {action.value}"
            return f"guess {action.value} extra {action.extra_feather_to}"
        if isinstance(action, Agree):
            return "agree"
        if isinstance(action, Reverse):
            return "reverse"
        return "dispute"

    def help(self, view: PowwowView) -> str:
        """The tomahawk commands only when tomahawks are in play at this table."""
        return f"{HELP}\n{TOMAHAWK_HELP}" if view.options.tomahawks else HELP

    def rules(self, view: PowwowView) -> str:
        return f"{RULES}\n\n{TOMAHAWK_RULES}" if view.options.tomahawks else RULES


def _is_number(word: str) -> bool:
    return word.removeprefix("-").isdigit()


def _number(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise ValueError(f"{what} must be a whole number, not '{word}'") from None


def _order(code: str) -> tuple[int, int]:
    try:
        return (0, int(code))
    except ValueError:
        return (1, 0)
