"""The few exceptions every layer catches: each carries a message a person can act on."""

from __future__ import annotations

from campfire.i18n import N_


class CampfireError(Exception):
    """Base of every error Campfire raises on purpose."""


class Refusal(str):
    """A refusal's English text that keeps its message template and arguments, so that each
    reader can be told it in their own language (`campfire.i18n` translates `template`).

    The rules only mark templates (`N_`); they never read a catalogue. A value may itself be a
    `Refusal` (a reason inside a sentence) or a `Number` (written in the reader's locale)."""

    template: str
    values: dict[str, object]

    def __new__(cls, template: str, **values: object) -> Refusal:
        said = super().__new__(cls, template.format(**values))
        said.template = template
        said.values = values
        return said

    def __reduce__(self) -> tuple[object, ...]:
        # rebuilt from its template and values (a worker process or Ray sends it back)
        return (_refusal, (type(self), self.template, self.values))

    def to_json(self) -> dict[str, object]:
        """The message as data, for a reader elsewhere: `{"key", "args"}` (nested alike)."""
        return {"key": self.template, "args": {k: _json(v) for k, v in self.values.items()}}


def _refusal(cls: type[Refusal], template: str, values: dict[str, object]) -> Refusal:
    return cls(template, **values)


def _json(value: object) -> object:
    if isinstance(value, Refusal | Number):
        return value.to_json()
    return value


class Number:
    """A number in a message, written in the reader's locale when it is told: `percent`
    (0.42 is 42%) or `decimal`, with `digits` after the point. English when formatted as it is.
    """

    def __init__(self, value: float, style: str = "decimal", digits: int = 0) -> None:
        self.value = value
        self.style = style
        self.digits = digits

    def __format__(self, spec: str) -> str:
        if self.style == "percent":
            return f"{self.value:.{self.digits}%}"
        return f"{self.value:.{self.digits}f}"

    def __str__(self) -> str:
        return format(self, "")

    def __repr__(self) -> str:
        return f"Number({self.value!r}, {self.style!r}, {self.digits})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Number) and (self.value, self.style, self.digits) == (
            other.value,
            other.style,
            other.digits,
        )

    def __hash__(self) -> int:
        return hash((self.value, self.style, self.digits))

    def to_json(self) -> dict[str, object]:
        return {"number": self.value, "style": self.style, "digits": self.digits}


def percent(value: float, digits: int = 0) -> Number:
    return Number(value, "percent", digits)


def decimal(value: float, digits: int = 1) -> Number:
    return Number(value, "decimal", digits)


class IllegalAction(CampfireError):
    """The rules refuse this move; the state is left exactly as it was."""


class OptionError(CampfireError):
    """A game option is unknown, of the wrong type or out of range. Its message is a
    `Refusal` when the engine said it (`campfire.i18n.error_text` tells it in a language)."""

    def message(self) -> str:
        return self.args[0] if self.args else ""


class RecordError(CampfireError):
    """A game record cannot be read or replayed.

    `index` names the refused entry of `moves` (0-based) when the fault is in one entry. The
    reason is a `Refusal` where the engine said it, so that each reader is told it in their
    language (`message()` is the whole sentence as a `Refusal`).
    """

    def __init__(self, message: str, index: int | None = None, entry: object = None) -> None:
        super().__init__(message)
        self.reason = message
        self.index = index
        self.entry = entry

    def message(self) -> str:
        """The whole reason: a `Refusal` (its template and values) where the engine said it."""
        if self.index is None:
            return self.reason
        import json

        said = json.dumps(self.entry, separators=(", ", ": "))
        return Refusal(ENTRY, index=self.index, entry=said, reason=self.reason)

    def __str__(self) -> str:
        return str(self.message())


#: a refused entry of a record (the template is translated where it is told)
ENTRY = N_("entry {index} {entry}: {reason}")
