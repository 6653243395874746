"""What a game provides so the terminal can draw its table and read commands."""

from __future__ import annotations

from typing import Any, Protocol


class UnknownCommand(ValueError):
    """A typed command whose first word names no command of the game (the terminal may then
    suggest the nearest one)."""

    def __init__(self, verb: str) -> None:
        super().__init__(f"unknown command '{verb}' (help lists them)")
        self.verb = verb


class TextInterface(Protocol):
    def render(self, view: Any) -> Any:
        """The table as `seat` sees it, as a Rich renderable."""
        ...

    def parse(self, command: str, view: Any) -> Any:
        """The action a typed command names; ValueError says what is wrong with it
        (`UnknownCommand` when its first word is no command at all)."""
        ...

    def command(self, action: Any) -> str:
        """The command that plays `action` (the inverse of `parse`)."""
        ...

    def help(self, view: Any) -> str:
        """The game's commands that can be used at this table, one per line."""
        ...

    def rules(self, view: Any) -> str:
        """A short reminder of the rules and a legend of the table's symbols."""
        ...


class Narrator:
    """Sentences about seats, in the second person for the seat being told."""

    _IRREGULAR = {"be": ("are", "is")}

    def __init__(self, seat: int | None) -> None:
        self.seat = seat

    def name(self, s: int, possessive: bool = False) -> str:
        if s == self.seat:
            return "your" if possessive else "you"
        return f"seat {s}'s" if possessive else f"seat {s}"

    def __call__(self, s: int, verb: str, rest: str) -> str:
        you = s == self.seat
        plain, third = self._IRREGULAR.get(
            verb, (verb, verb + ("es" if verb.endswith("s") else "s"))
        )
        subject = "You" if you else f"Seat {s}"
        return f"{subject} {plain if you else third} {rest}"
