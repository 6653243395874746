"""A game at the terminal: the table drawn each turn, every event told, commands read.

Only the kernel is used here (views, legal actions, events, the game's `text` interface), so
every game plays the same way. With several people at one keyboard the screen shows public
events only, and hands over between them so nobody sees what they may not.
"""

from __future__ import annotations

import difflib
import os
import random
import re
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule
from rich.text import Text

from campfire.i18n import Translator, refusal_text, translator
from campfire.kernel.bots import Bot
from campfire.kernel.errors import IllegalAction
from campfire.kernel.events import Event
from campfire.kernel.records import Record, SeatEntry
from campfire.kernel.state import State
from campfire.kernel.text import UnknownCommand
from campfire.terminal import messages as say
from campfire.terminal.layout import layout
from campfire.terminal.messages import GENERAL_HELP, GENERAL_HELP_ROWS, help_text

__all__ = ["END_COMMANDS", "GENERAL_HELP", "Command", "EndCommand", "Session", "to_you"]

#: ECMA-48 "erase in display" 3: the terminal forgets its scroll-back (xterm, VTE, tmux, ...)
ERASE_SCROLLBACK = "\x1b[3J"

#: extra commands a caller may add: name -> (help line, handler(session, seat, args) -> None)
Command = tuple[str, Callable[["Session", int, list[str]], None]]
#: a command after the game: (help line, or (syntax, what) to translate, handler(session, args)
#: -> exit status or None to stay)
EndCommand = tuple[str | tuple[str, str], Callable[["Session", list[str]], int | None]]


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
        typed_ahead: Callable[[], list[str]] | None = None,
        record_to: str | None = None,
        end_commands: Mapping[str, EndCommand] | None = None,
        lang: str = "en",
    ) -> None:
        self.state = state
        self.game = state.game
        self.lang = lang
        self.tr: Translator = translator(lang)
        # the game's table and commands in the reader's language
        self.text = self.game.text_in(lang)
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
        # takes the lines typed before the screen showed what they would answer off the input
        self.typed_ahead = typed_ahead or (lambda: [])
        self.record_to = record_to  # --record FILE: written after every move and at the end
        # the commands once the game is over (more can be added: a table, not code)
        self.end_commands = {**END_COMMANDS, **(end_commands or {})}
        # the game after the last whole move, and its length (entries of the state's history)
        self._checkpoint: tuple[Record, int] | None = None
        self._saved_at = len(state.history)  # how much of the game a save or --record holds
        self._saved_to: str | None = record_to
        self._record_failed = False
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
                line = self.game.describe(event, seat, self.lang)
                if line:
                    # wrapped between words, indented under the first line
                    text = Text(line)
                    for part in text.wrap(self.console, max(20, self.console.width - 2)):
                        part.rstrip()
                        self.console.print(Text("  ") + part, highlight=False)

    def show_table(self, seat: int) -> None:
        self.console.print(self.text.render(self.state.view(seat)))

    # --- the game loop ---------------------------------------------------------------------
    def run(self) -> int:
        """Play to the end (then, at a terminal, wait for 'quit'); the exit status. Nothing is
        lost on the way out: Ctrl-C or Ctrl-D leave the game saved (the file is named)."""
        try:
            try:
                status = self.play()
                if status is not None:
                    return status
                self.finish()
                return self.after_the_game()
            except EOFError:  # Ctrl-D where a key was awaited
                self.console.line()
                return self.leave(self.say(say.LEFT), 0)
        except KeyboardInterrupt:
            self.console.line()
            return self.leave(self.say(say.INTERRUPTED), 130, checkpoint=True)
        finally:
            last = self._checkpoint  # --record's file holds the last whole move, whatever came
            if self.record_to is not None and last is not None and last[1] != self._saved_at:
                self.write_record(*last)

    def play(self) -> int | None:
        """The game, move by move; an exit status if the person leaves before the end."""
        names = ", ".join(
            self.say(say.SEAT_ROLE, seat=s, role=self.role(s)) for s in range(self.state.players)
        )
        self.console.print(Rule())
        header = Text(self.say(say.HEADER, title=self.game.title, seats=names), style="bold")
        self.console.print(header, highlight=False)
        self.console.print(self.say(say.TYPE_HELP), highlight=False)
        state = self.state
        while not state.is_terminal:
            seat = state.to_move
            if seat is None:
                events = state.apply(state.sample_chance(self.rng))
                self.moved()  # kept before it is told: whatever is shown is saved
                self.tell(events)
            elif seat in self.bots:
                action = self.bots[seat].choose(state.view(seat), state.legal_actions())
                events = state.apply(action)
                self.moved()
                self.tell(events)
                if self.pace > 0 and not state.is_terminal:
                    self.sleep(self.pace)  # one move at a time, also once you are out
            else:
                outcome = self.human_turn(seat)
                if outcome is not None:
                    return outcome
        return None

    # --- keeping the game ------------------------------------------------------------------
    def moved(self) -> None:
        """After every whole move: the checkpoint a Ctrl-C saves, and the --record file."""
        self._checkpoint = (self.record(), len(self.state.history))
        if self.record_to is not None:
            self.write_record(*self._checkpoint)

    def write_record(self, record: Record, at: int) -> None:
        """Write --record's file with `record`, the game's first `at` history entries."""
        assert self.record_to is not None
        try:
            save_whole(record, self.record_to)
        except OSError as error:
            if not self._record_failed:  # said once, not after every move
                self.error(self.say(say.CANNOT_RECORD, path=self.record_to, reason=error.strerror))
            self._record_failed = True
            return
        self._record_failed = False
        self._saved_at = at

    def unsaved(self) -> bool:
        return len(self.state.history) != self._saved_at

    def leave(self, message: str, status: int, keep: bool = True, checkpoint: bool = False) -> int:
        """Say goodbye, and where the game is kept: with `keep`, saved to a new file if it was
        not. `checkpoint`: the game as it was after the last whole move (an interrupted move
        may have left the state half done)."""
        if checkpoint and self._checkpoint is not None:
            record, at = self._checkpoint
        else:
            record, at = self.record(), len(self.state.history)
        if keep and record.moves and at != self._saved_at:
            if self.record_to is not None:
                self.write_record(record, at)
            else:
                self._saved_to = autosave(record)
                if self._saved_to is not None:
                    self._saved_at = at
        self.console.print(message, highlight=False)
        if self._saved_to is not None and at == self._saved_at:
            self.console.print(
                self.say(say.KEPT, path=self._saved_to, game=self.game.name),
                highlight=False,
                markup=False,
            )
        return status

    def confirm_quit(self) -> bool:
        """'quit' with moves not saved asks first (a save there, then leave, is fine too)."""
        if not self.unsaved():
            return True
        self.console.print(self.say(say.NOT_SAVED), highlight=False, markup=False)
        line = self.read_line(self.say(say.CONFIRM_QUIT))
        if line is None:
            if self.interactive:
                raise EOFError  # Ctrl-D: leave, the game kept
            return True  # a script that says quit and ends means it
        words = line.split()
        verb = say.english_verb(self.tr, words[0], say.COMMANDS) if words else ""
        if verb == "save":
            return self.save(words[1:])
        if verb in say.YES or (verb == "quit"):
            return True
        self.console.print(self.say(say.PLAY_ON), highlight=False)
        return False

    # --- after the game --------------------------------------------------------------------
    def after_the_game(self) -> int:
        """At a terminal, the finished game stays until the person leaves: save it, look at it
        again, or whatever else `end_commands` offers."""
        if self.record_to is not None:
            self.write_record(self.record(), len(self.state.history))
        if not self.interactive:
            return 0
        self.ignore_typed_ahead()
        self.console.print(self.say(say.AFTER_THE_GAME), highlight=False, markup=False)
        while True:
            line = self.read_line(self.say(say.END_PROMPT))
            if line is None:
                self.console.line()
                return self.leave(self.say(say.LEFT), 0)
            words = line.split()
            if not words:
                continue
            verb = say.english_verb(self.tr, words[0], list(self.end_commands))
            if verb in self.end_commands:
                status = self.end_commands[verb][1](self, words[1:])
                if status is not None:
                    return status
                continue
            near = difflib.get_close_matches(verb, list(self.end_commands), n=2)
            if near:
                suggestions = self.say(say.OR).join(f"'{word}'" for word in near)
                self.error(self.say(say.DID_YOU_MEAN, verb=verb, suggestions=suggestions))
            else:
                self.error(self.say(say.UNKNOWN_AFTER, verb=verb))

    def say(self, message: str, /, **args: Any) -> str:
        """`message` (from `campfire.terminal.messages`) in the reader's language."""
        return self.tr.gettext(message, **args)

    def general_help(self) -> str:
        return help_text(self.tr, GENERAL_HELP_ROWS)

    def role(self, seat: int) -> str:
        if seat not in self.humans:
            level = self.levels.get(seat)
            if not level:
                return self.say(say.ROLE_BOT)
            return self.say(say.ROLE_BOT_LEVEL, level=self.tr.level(level))
        return self.say(say.ROLE_YOU) if len(self.humans) == 1 else self.say(say.ROLE_PERSON)

    def hand_over(self, seat: int) -> None:
        """Several people at one keyboard: wipe the screen and its scroll-back (which showed
        the last seat's table, and so the next seat's own feathers), then wait for the next."""
        if len(self.humans) < 2 or self._shown_to == seat:
            return
        if self.interactive:
            self.wipe()
            typed = self.console.input(self.say(say.PASS_KEYBOARD, seat=seat))
            self.wipe()
            if typed.strip():  # typed before this seat's table was shown: not played
                self.console.print(
                    self.say(say.TYPED_AHEAD, typed=escape(f"'{typed.strip()}'")), highlight=False
                )
        self.console.print(Rule(self.say(say.SEAT_RULE, seat=seat)))
        self._shown_to = seat

    def wipe(self) -> None:
        """Clear the screen and, at a terminal, the scroll-back too: nothing of it is left to
        scroll back to (the screen first, as some terminals keep a cleared screen in the
        scroll-back)."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write(ERASE_SCROLLBACK)
            self.console.file.flush()

    def human_turn(self, seat: int) -> int | None:
        """Read commands until `seat` has acted; an exit status if the person leaves."""
        self.hand_over(seat)
        self.show_table(seat)
        self.ignore_typed_ahead()
        state = self.state
        while True:
            line = self.read_line(self.say(say.PROMPT, seat=seat))
            if line is None:
                if self.interactive:  # Ctrl-D: leave, the game kept
                    raise EOFError
                message = say.INPUT_ENDED if self.record_to is None else say.INPUT_ENDED_KEPT
                self.console.print(self.say(message, path=self.record_to), highlight=False)
                return 1
            words = line.split()
            if not words:
                continue
            verb = say.english_verb(self.tr, words[0], say.COMMANDS)
            if verb in ("help", "?"):
                view = state.view(seat)
                extra = "\n".join(self.tr.gettext(line) for line, _ in self.commands.values())
                text = "\n".join(filter(None, [self.text.help(view), extra, self.general_help()]))
                self.console.print(layout(text), highlight=False)
                continue
            if verb == "rules":
                self.console.print(layout(self.text.rules(state.view(seat))), highlight=False)
                continue
            if verb == "quit":
                if self.confirm_quit():
                    return self.leave(self.say(say.LEFT), 0, keep=False)
                continue
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
                action = self.text.parse(line, state.view(seat))
                events = state.apply(action, seat=seat)
            except UnknownCommand as error:
                self.error(
                    self.unknown(error.verb, seat)
                    or self.tr.gettext(
                        "unknown command '{verb}' (help lists them)", verb=error.verb
                    )
                )
                continue
            except (ValueError, IllegalAction) as error:
                if self.lang != "en":
                    self.error(refusal_in(error, self.tr))
                else:
                    self.error(to_you(str(error), seat) if len(self.humans) == 1 else str(error))
                continue
            self.moved()
            self.tell(events)
            return None

    def ignore_typed_ahead(self) -> None:
        """Lines typed before this position was shown are not played: say so, show them."""
        lines = self.typed_ahead()
        if lines:
            typed = self.say(say.AND).join(f"'{line}'" for line in lines)
            self.console.print(self.say(say.TYPED_AHEAD, typed=escape(typed)), highlight=False)

    def error(self, message: str) -> None:
        """A refusal: a red cross and the reason, the text printed as it is."""
        self.console.print(say.ERROR.format(message=escape(message)), highlight=False)

    def verbs(self, seat: int) -> list[str]:
        """Every command name this table knows: the game's (from its help), the extras, ours."""
        lines = [self.text.help(self.state.view(seat)), self.general_help()]
        words = [line.split()[0] for text in lines for line in text.splitlines() if line.strip()]
        return [*dict.fromkeys([*words, *self.commands])]

    def unknown(self, verb: str, seat: int) -> str | None:
        """'did you mean' the nearest commands to a mistyped one, if any is near."""
        near = difflib.get_close_matches(verb, self.verbs(seat), n=2)
        if not near:
            return None
        return self.say(
            say.DID_YOU_MEAN, verb=verb, suggestions=self.say(say.OR).join(f"'{w}'" for w in near)
        )

    def seats(self) -> list[SeatEntry] | None:
        """The record's `seats`: a bot level where a bot plays (None when a bot's is unknown)."""
        if any(s not in self.levels for s in self.bots):
            return None
        return [{"name": None, "bot": self.levels.get(s)} for s in range(self.state.players)]

    def record(self) -> Record:
        """The game so far as a record, with who sits where."""
        return Record.of(self.state, self.seats())

    def save(self, args: list[str]) -> bool:
        """'save FILE': True once saved."""
        if len(args) != 1:
            self.error(self.say(say.SAVE_USAGE))
            return False
        record = self.record()
        try:
            record.save(args[0])
        except OSError as error:
            self.error(self.say(say.CANNOT_SAVE, path=args[0], reason=error.strerror))
            return False
        self._saved_at, self._saved_to = len(self.state.history), args[0]
        self.console.print(self.say(say.SAVED, path=args[0]), highlight=False, markup=False)
        return True

    def finish(self) -> None:
        state = self.state
        seat = self.audience
        self.console.print(Rule(self.say(say.GAME_OVER)))
        self.console.print(self.text.render(state.view(seat)))
        winners = state.winners()
        said = self.tr.join(
            self.say(say.ROLE_YOU) if s == seat else self.say(say.SEAT, seat=s) for s in winners
        )
        line = self.tr.ngettext(
            "[bold]Winner: {names}[/]", "[bold]Winners: {names}[/]", len(winners), names=said
        )
        self.console.print(line, highlight=False)


#: third-person verbs of the engine's messages and the form that goes with "you"
_SECOND_PERSON = {"has": "have", "is": "are", "was": "were", "wears": "wear", "owns": "own"}


def save_whole(record: Record, path: str) -> None:
    """Write `record` to `path` whole or not at all (a new file moved over the old one), so an
    interrupted write never leaves half a record."""
    target = Path(path)
    part = target.with_name(f".{target.name}.part")
    record.save(part)
    os.replace(part, target)


def autosave(record: Record) -> str | None:
    """Save `record` under a new name in the current folder (else the temporary one); the
    path, or None if nowhere could take it."""
    name = f"campfire-{record.game}-{time.strftime('%Y%m%d-%H%M%S')}.json"
    for folder in (Path.cwd(), Path(tempfile.gettempdir())):
        path = folder / name
        if path.exists():
            path = folder / f"{path.stem}-{os.getpid()}.json"
        try:
            record.save(path)
        except OSError:
            continue
        return str(path)
    return None


def _end_save(session: Session, args: list[str]) -> int | None:
    session.save(args)
    return None


def _end_review(session: Session, args: list[str]) -> int | None:
    """'review [SEAT]': the review of the game just played (`campfire.review`), in words."""
    from campfire.review import review_record
    from campfire.review.text import lines

    players = session.state.players
    if len(args) > 1 or (args and not (args[0].isdigit() and int(args[0]) < players)):
        session.error(session.say(say.REVIEW_USAGE))
        return None
    seats = [int(args[0])] if args else None
    session.console.print(session.say(say.REVIEWING), highlight=False, markup=False)
    try:
        review = review_record(session.record(), seats)
    except ValueError as error:  # a game without a judge, say
        session.error(refusal_in(error, session.tr))
        return None
    names = []
    for seat in range(players):
        if seat == session.audience:
            names.append(session.say(say.REVIEW_YOU, seat=seat))
        elif len(session.humans) > 1 or seat not in session.humans:
            names.append(session.say(say.REVIEW_SEAT_ROLE, seat=seat, role=session.role(seat)))
        else:
            names.append(session.say(say.REVIEW_SEAT, seat=seat))
    for line in lines(review, names, tr=session.tr):
        session.console.print(line, highlight=False, markup=False)
    return None


def _end_table(session: Session, args: list[str]) -> int | None:
    session.console.print(session.text.render(session.state.view(session.audience)))
    return None


def _end_help(session: Session, args: list[str]) -> int | None:
    text = "\n".join(
        say.help_line(session.tr, *line) if isinstance(line, tuple) else line
        for line, _ in session.end_commands.values()
    )
    session.console.print(layout(text), highlight=False)
    return None


def _end_quit(session: Session, args: list[str]) -> int | None:
    return (
        session.leave(session.say(say.GOODBYE), 0, keep=False) if session.confirm_quit() else None
    )


#: after the game: name -> (help line, handler(session, words after it) -> exit status, or
#: None to stay); `Session(end_commands=...)` adds more
END_COMMANDS: dict[str, EndCommand] = {
    "save": (say.END_HELP_SAVE, _end_save),
    "review": (say.END_HELP_REVIEW, _end_review),
    "table": (say.END_HELP_TABLE, _end_table),
    "help": (say.END_HELP_HELP, _end_help),
    "quit": (say.END_HELP_QUIT, _end_quit),
}


def refusal_in(error: Exception, tr: Translator) -> str:
    """A refusal in the reader's language: the rules' own (a `Refusal`: its template and
    values, names of things through the catalogue) or one already said by the text layer."""
    return refusal_text(error.args[0] if error.args else str(error), tr)


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
