"""Pow Wow in a terminal: the table drawn with Rich, and the typed commands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from campfire.games.powwow.actions import AGREE, DISPUTE, REVERSE, Action, Agree, Guess, Reverse
from campfire.games.powwow.feathers import color
from campfire.games.powwow.narration import feather as feather_name
from campfire.games.powwow.view import PowwowView
from campfire.i18n import N_, NC_, translator
from campfire.i18n.commands import english_verb, help_text
from campfire.kernel.text import UnknownCommand

if TYPE_CHECKING:
    from campfire.games.powwow.game import Powwow

_STYLE = {
    "green": "bold green",
    "blue": "bold blue",
    "red": "bold red",
    "black": "bold white on black",
}

HELP_ROWS = (
    (N_("guess N"), N_("announce a total of N, higher than the standing guess (or just N)")),
    (N_("dispute"), N_("challenge the standing guess: the feathers are counted")),
)
TOMAHAWK_HELP_ROWS = (
    (N_("guess N extra S"), N_("guess N and give seat S an extra feather (tomahawk)")),
    (N_("agree"), N_("take over the standing guess unchanged (tomahawk)")),
    (N_("reverse"), N_("flip the direction instead of guessing (tomahawk)")),
)
#: the commands, each also accepted in the reader's language
VERBS = ("guess", "dispute", "agree", "reverse", "extra")
_VERB_WORDS = (
    NC_("command", "guess"),
    NC_("command", "dispute"),
    NC_("command", "agree"),
    NC_("command", "reverse"),
    NC_("command", "extra"),
)
HELP = help_text(translator("en"), HELP_ROWS)
TOMAHAWK_HELP = help_text(translator("en"), TOMAHAWK_HELP_ROWS)

RULES = N_("""\
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
Table: ▶ whose turn, ● a buzzard taken, · one still to go, ← owns the standing guess.""")

TOMAHAWK_RULES = N_("""\
Tomahawks: once a round, instead of a plain guess you may 'agree' (own the standing guess
unchanged), 'reverse' (play turns the other way) or add 'extra S' to a guess (seat S takes one
more feather without looking).""")


def feather_text(code: str | None, lang: str = "en") -> Text:
    if code is None:
        return Text("▒▒", style="dim")
    return Text(f" {feather_name(code, translator(lang))} ", style=_STYLE[color(code)])


class PowwowText:
    def __init__(self, game: Powwow, lang: str = "en") -> None:
        self.game = game
        self.tr = translator(lang)

    def render(self, view: PowwowView) -> Any:
        _ = self.tr.gettext
        if view.direction == 1:
            way = _("Pow Wow · round {round} · play goes clockwise ↻", round=view.round)
        else:
            way = _("Pow Wow · round {round} · play goes counter-clockwise ↺", round=view.round)
        head = Text(way, style="bold")
        table = Table(box=None, pad_edge=False, header_style="bold")
        table.add_column(_("seat"))
        table.add_column(_("feathers"))
        table.add_column(_("buzzards"))
        if view.options.tomahawks:
            table.add_column(_("tomahawk"))
        for s in range(view.players):
            name = _("{seat} (you)", seat=s) if s == view.seat else f"{s}"
            if s == view.to_move:
                name = "▶ " + name
            if not view.is_active(s):
                cells: list[Any] = [Text(name, style="dim"), Text(_("out"), style="dim")]
            else:
                feathers = Text()
                for f in view.feathers[s]:
                    feathers.append_text(feather_text(f, self.tr.lang))
                    feathers.append(" ")
                if s == view.owner and not view.terminal:
                    feathers.append(" " + _("← owns {guess}", guess=view.guess), style="yellow")
                cells = [name, feathers]
            cells.append(
                "●" * view.buzzards[s] + "·" * max(0, view.options.buzzards - view.buzzards[s])
            )
            if view.options.tomahawks:
                cells.append(_("ready") if view.tomahawks[s] and view.is_active(s) else "—")
            table.add_row(*cells)
        lines: list[Any] = [head, table]
        if view.terminal:
            pass  # the game is over: no guess stands any more
        elif view.guess is None:
            lines.append(Text(_("No guess stands yet.")))
        else:
            mine = view.owner == view.seat
            if mine and view.agreed:
                said = _("Standing guess: {guess}, owned by you (by agreeing).", guess=view.guess)
            elif mine:
                said = _("Standing guess: {guess}, owned by you.", guess=view.guess)
            elif view.agreed:
                said = _(
                    "Standing guess: {guess}, owned by seat {seat} (by agreeing).",
                    guess=view.guess,
                    seat=view.owner,
                )
            else:
                said = _(
                    "Standing guess: {guess}, owned by seat {seat}.",
                    guess=view.guess,
                    seat=view.owner,
                )
            lines.append(Text(said))
        if view.turns and not view.terminal:
            said = ", ".join(
                f"{_('you') if s == view.seat else s}: {self.command(a)}" for s, a in view.turns
            )
            lines.append(Text(_("This round — {said}", said=said), style="dim"))
        used = Text(_("Used pile ({count}): ", count=len(view.used)))
        for f in sorted(view.used, key=_order):
            used.append_text(feather_text(f, self.tr.lang))
            used.append(" ")
        lines.append(used)
        lines.append(
            Text(
                self.tr.ngettext(
                    "Stack: {n} feather face down.",
                    "Stack: {n} feathers face down.",
                    view.stack_size,
                )
            )
        )
        return Group(*lines)

    def _verb(self, word: str) -> str:
        return english_verb(self.tr, word, VERBS)

    def parse(self, command: str, view: PowwowView) -> Action:
        _ = self.tr.gettext
        words = command.lower().split()
        if not words:
            raise ValueError(_("type a command (help lists them)"))
        if _is_number(words[0]):
            words.insert(0, "guess")  # a bare number is a guess: '12' is 'guess 12'
        verb, args = self._verb(words[0]), words[1:]
        if verb in ("guess", "g"):
            if not args:
                raise ValueError(_("guess needs a number, e.g. 'guess 12'"))
            value = _number(args[0], _("the guess"), self.tr)
            if len(args) == 1:
                return Guess(value)
            if len(args) == 3 and self._verb(args[1]) in ("extra", "x"):
                return Guess(value, _number(args[2], _("the seat for the extra feather"), self.tr))
            raise ValueError(_("write 'guess N' or 'guess N extra SEAT'"))
        simple: dict[str, Action] = {
            "dispute": DISPUTE,
            "d": DISPUTE,
            "agree": AGREE,
            "reverse": REVERSE,
        }
        if verb in simple:
            if args:
                raise ValueError(_("'{verb}' takes nothing after it", verb=words[0]))
            return simple[verb]
        raise UnknownCommand(verb)

    def command(self, action: Action) -> str:
        word = self.tr.pgettext
        if isinstance(action, Guess):
            if action.extra_feather_to is None:
                return f"{word('command', 'guess')} {action.value}"
            return (
                f"{word('command', 'guess')} {action.value} {word('command', 'extra')}"
                f" {action.extra_feather_to}"
            )
        if isinstance(action, Agree):
            return word("command", "agree")
        if isinstance(action, Reverse):
            return word("command", "reverse")
        return word("command", "dispute")

    def help(self, view: PowwowView) -> str:
        """The tomahawk commands only when tomahawks are in play at this table."""
        rows = HELP_ROWS + TOMAHAWK_HELP_ROWS if view.options.tomahawks else HELP_ROWS
        return help_text(self.tr, rows)

    def rules(self, view: PowwowView) -> str:
        _ = self.tr.gettext
        return f"{_(RULES)}\n\n{_(TOMAHAWK_RULES)}" if view.options.tomahawks else _(RULES)


def _is_number(word: str) -> bool:
    return word.removeprefix("-").isdigit()


def _number(word: str, what: str, tr: Any) -> int:
    try:
        return int(word)
    except ValueError:
        raise ValueError(
            tr.gettext("{what} must be a whole number, not '{word}'", what=what, word=word)
        ) from None


def _order(code: str) -> tuple[int, int]:
    try:
        return (0, int(code))
    except ValueError:
        return (1, 0)
