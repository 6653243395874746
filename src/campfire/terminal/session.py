"""A game at the terminal: the table drawn each turn, every event told, commands read.

Only the kernel is used here (views, legal actions, events, the game's `text` interface), so
every game plays the same way. With several people at one keyboard the screen shows public
events only, and hands over between them so nobody sees what they may not.
"""

from __future__ import annotations

import difflib
import random
import re
import time
from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule
from rich.text import Text

from campfire.kernel.bots import Bot
from campfire.kernel.errors import IllegalAction
from campfire.kernel.events import Event
from campfire.kernel.records import Record, SeatEntry
from campfire.kernel.state import State
from campfire.kernel.text import UnknownCommand
from campfire.terminal import messages as say
from campfire.terminal.messages import GENERAL_HELP

__all__ = ["GENERAL_HELP", "Command", "Session", "to_you"]

#: extra commands a caller may add: name -> (help line, handler(session, seat, args) -> None)
Command = tuple[str, Callable[["Session", int, list[str]], None]]


class Session:
    def __init__(
        self,
        state: State[Any, Any],
        humans: set[int],
        bots: Mapping[int, Bot],
        rng: random.Random,
        console: Console,
        read_line: Callable[[str], str | None],
        interactive: bool,
        commands: Mapping[str, Command] | None = None,
        pace: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
        levels: Mapping[int, str] | None = None,
    ) -> None:
        self.state = state
        self.game = state.game
        self.humans = humans
        self.bots = bots
        self.rng = rng
        self.console = console
        self.read_line = read_line
        self.interactive = interactive
        self.commands = dict(commands or {})
        self.pace = pace  # seconds to wait after each bot move, so it can be read
        self.sleep = sleep
        self.levels = dict(levels or {})  # the level of each bot, by seat, where it is known
        self._shown_to: int | None = None

    # --- narration -------------------------------------------------------------------------
    @property
    def audience(self) -> int | None:
        """Whose private events the screen may show: the only person playing, else nobody."""
        return next(iter(self.humans)) if len(self.humans) == 1 else None

    def tell(self, events: list[Event]) -> None:
        seat = self.audience
        for event in events:
            if event.visible_to(seat):
                line = self.game.describe(event, seat)
                if line:
                    # wrapped between words, indented under the first line
                    text = Text(line)
                    for part in text.wrap(self.console, max(20, self.console.width - 2)):
                        part.rstrip()
                        self.console.print(Text("  ") + part, highlight=False)

    def show_table(self, seat: int) -> None:
        self.console.print(self.game.text.render(self.state.view(seat)))

    # --- the game loop ---------------------------------------------------------------------
    def run(self) -> int:
        names = ", ".join(
            say.SEAT_ROLE.format(seat=s, role=self.role(s)) for s in range(self.state.players)
        )
        self.console.print(Rule())
        header = Text(say.HEADER.format(title=self.game.title, seats=names), style="bold")
        self.console.print(header, highlight=False)
        self.console.print(say.TYPE_HELP, highlight=False)
        state = self.state
        while not state.is_terminal:
            seat = state.to_move
            if seat is None:
                self.tell(state.apply(state.sample_chance(self.rng)))
            elif seat in self.bots:
                action = self.bots[seat].choose(state.view(seat), state.legal_actions())
                self.tell(state.apply(action))
                if self.pace > 0 and not state.is_terminal:
                    self.sleep(self.pace)  # one move at a time, also once you are out
            else:
                outcome = self.human_turn(seat)
                if outcome is not None:
                    return outcome
        self.finish()
        return 0

    def role(self, seat: int) -> str:
        if seat not in self.humans:
            level = self.levels.get(seat)
            return say.ROLE_BOT_LEVEL.format(level=level) if level else say.ROLE_BOT
        return say.ROLE_YOU if len(self.humans) == 1 else say.ROLE_PERSON

    def hand_over(self, seat: int) -> None:
        if len(self.humans) < 2 or self._shown_to == seat:
            return
        if self.interactive:
            self.console.clear()
            self.console.input(say.PASS_KEYBOARD.format(seat=seat))
            self.console.clear()
        self.console.print(Rule(say.SEAT_RULE.format(seat=seat)))
        self._shown_to = seat

    def human_turn(self, seat: int) -> int | None:
        """Read commands until `seat` has acted; an exit status if the person leaves."""
        self.hand_over(seat)
        self.show_table(seat)
        state = self.state
        while True:
            line = self.read_line(say.PROMPT.format(seat=seat))
            if line is None:
                self.console.print(say.INPUT_ENDED)
                return 1
            words = line.split()
            if not words:
                continue
            verb = words[0].lower()
            if verb in ("help", "?"):
                view = state.view(seat)
                extra = "\n".join(help_line for help_line, _ in self.commands.values())
                text = "\n".join(filter(None, [self.game.text.help(view), extra, GENERAL_HELP]))
                self.console.print(text, highlight=False, markup=False)
                continue
            if verb == "rules":
                self.console.print(
                    self.game.text.rules(state.view(seat)), highlight=False, markup=False
                )
                continue
            if verb == "quit":
                self.console.print(say.LEFT)
                return 0
            if verb == "table":
                self.show_table(seat)
                continue
            if verb == "save":
                self.save(words[1:])
                continue
            if verb in self.commands:
                self.commands[verb][1](self, seat, words[1:])
                continue
            try:
                action = self.game.text.parse(line, state.view(seat))
                events = state.apply(action, seat=seat)
            except UnknownCommand as error:
                self.error(self.unknown(error.verb, seat) or str(error))
                continue
            except (ValueError, IllegalAction) as error:
                self.error(to_you(str(error), seat) if len(self.humans) == 1 else str(error))
                continue
            self.tell(events)
            return None

    def error(self, message: str) -> None:
        """A refusal: a red cross and the reason, the text printed as it is."""
        self.console.print(say.ERROR.format(message=escape(message)), highlight=False)

    def verbs(self, seat: int) -> list[str]:
        """Every command name this table knows: the game's (from its help), the extras, ours."""
        lines = [self.game.text.help(self.state.view(seat)), GENERAL_HELP]
        words = [line.split()[0] for text in lines for line in text.splitlines() if line.strip()]
        return [*dict.fromkeys([*words, *self.commands])]

    def unknown(self, verb: str, seat: int) -> str | None:
        """'did you mean' the nearest commands to a mistyped one, if any is near."""
        near = difflib.get_close_matches(verb, self.verbs(seat), n=2)
        if not near:
            return None
        return say.DID_YOU_MEAN.format(
            verb=verb, suggestions=say.OR.join(f"'{word}'" for word in near)
        )

    def seats(self) -> list[SeatEntry] | None:
        """The record's `seats`: a bot level where a bot plays (None when a bot's is unknown)."""
        if any(s not in self.levels for s in self.bots):
            return None
        return [{"name": None, "bot": self.levels.get(s)} for s in range(self.state.players)]

    def record(self) -> Record:
        """The game so far as a record, with who sits where."""
        return Record.of(self.state, self.seats())

    def save(self, args: list[str]) -> None:
        if len(args) != 1:
            self.error(say.SAVE_USAGE)
            return
        try:
            self.record().save(args[0])
        except OSError as error:
            self.error(say.CANNOT_SAVE.format(path=args[0], reason=error.strerror))
            return
        self.console.print(say.SAVED.format(path=args[0]), highlight=False, markup=False)

    def finish(self) -> None:
        state = self.state
        seat = self.audience
        self.console.print(Rule(say.GAME_OVER))
        self.console.print(self.game.text.render(state.view(seat)))
        winners = state.winners()
        said = say.AND.join(say.ROLE_YOU if s == seat else say.SEAT.format(seat=s) for s in winners)
        line = say.WINNERS if len(winners) > 1 else say.WINNER
        self.console.print(line.format(names=said), highlight=False)


#: third-person verbs of the engine's messages and the form that goes with "you"
_SECOND_PERSON = {"has": "have", "is": "are", "was": "were", "wears": "wear", "owns": "own"}


def to_you(message: str, seat: int) -> str:
    """An engine message about `seat` said to the person sitting there: "you", not "seat 0",
    with the verb agreeing ("you have", not "you has") and "your" for "their"."""
    message = re.sub(rf"\b[Ss]eat {seat}'s\b", "your", message)
    message = re.sub(rf"\b[Ss]eat {seat} played their\b", "you played your", message)
    message = re.sub(rf"\b[Ss]eat {seat} played\b", "you played", message)
    verbs = "|".join(_SECOND_PERSON)

    def agree(m: re.Match[str]) -> str:
        said = f"you{m[1] or ''} {_SECOND_PERSON[m[2]]}"
        if m[3]:  # "... and wears": the second verb of the same clause
            said += m[3][: -len(m[4])] + _SECOND_PERSON[m[4]]
        return said

    message = re.sub(
        rf"\b[Ss]eat {seat}( already)? ({verbs})\b([^:;.]*?\band ({verbs})\b)?", agree, message
    )
    return re.sub(rf"\b[Ss]eat {seat}\b", "you", message)
