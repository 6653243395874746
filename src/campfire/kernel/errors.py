"""The few exceptions every layer catches: each carries a message a person can act on."""

from __future__ import annotations


class CampfireError(Exception):
    """Base of every error Campfire raises on purpose."""


class Refusal(str):
    """A refusal's English text that keeps its message template and arguments, so that each
    reader can be told it in their own language (`campfire.i18n` translates `template`)."""

    template: str
    values: dict[str, object]

    def __new__(cls, template: str, **values: object) -> Refusal:
        said = super().__new__(cls, template.format(**values))
        said.template = template
        said.values = values
        return said


class IllegalAction(CampfireError):
    """The rules refuse this move; the state is left exactly as it was."""


class OptionError(CampfireError):
    """A game option is unknown, of the wrong type or out of range."""


class RecordError(CampfireError):
    """A game record cannot be read or replayed.

    `index` names the refused entry of `moves` (0-based) when the fault is in one entry.
    """

    def __init__(self, message: str, index: int | None = None, entry: object = None) -> None:
        super().__init__(message)
        self.reason = message
        self.index = index
        self.entry = entry

    def __str__(self) -> str:
        if self.index is None:
            return self.reason
        import json

        said = json.dumps(self.entry, separators=(", ", ": "))
        return f"entry {self.index} {said}: {self.reason}"
