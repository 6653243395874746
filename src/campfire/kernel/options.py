"""Game options: typed, strict, with errors that name the option."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from campfire.kernel.errors import OptionError


class Options(BaseModel):
    """Base of each game's options: unknown keys and loose types are refused."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


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
