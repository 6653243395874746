"""Game options: typed, strict, with errors that name the option."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
)

from campfire.kernel.errors import OptionError


class Options(BaseModel):
    """Base of each game's options: unknown keys and loose types are refused.

    `RESEARCH` names a game's research-variant options (smaller games for solvers and learning
    code, never offered at the tables): at their defaults they are left out of `model_dump`, so
    the records, views and wire of a real game stay as they were."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    RESEARCH: ClassVar[tuple[str, ...]] = ()

    def research(self) -> list[str]:
        """The research-variant options set away from their defaults (none in a real game)."""
        fields = type(self).model_fields
        return [name for name in self.RESEARCH if getattr(self, name) != fields[name].default]

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)
        if self.RESEARCH:
            used = set(self.research())
            for name in self.RESEARCH:
                if name not in used:
                    out.pop(name, None)
        return out


OptionsT = TypeVar("OptionsT", bound=Options)


def parse_options(model: type[OptionsT], raw: Mapping[str, Any] | None) -> OptionsT:
    if raw is not None and not isinstance(raw, Mapping):
        raise OptionError("options must be an object of name: value")
    try:
        return model.model_validate(dict(raw or {}))
    except ValidationError as error:
        first = error.errors()[0]
        # the option's own name, even an empty one; "options" only for the whole object
        name = ".".join(str(part) for part in first["loc"]) if first["loc"] else "options"
        if first["type"] == "extra_forbidden":
            known = ", ".join(model.model_fields)
            raise OptionError(f"unknown option {name!r} (options: {known})") from None
        message = first["msg"][0].lower() + first["msg"][1:]
        raise OptionError(f"option {name!r}: {message}, got {first.get('input')!r}") from None


def parse_option_value(text: str) -> Any:
    """A command-line option value: JSON when it parses (3, true, null), else the text."""
    import json

    try:
        return json.loads(text)
    except ValueError:
        return text
