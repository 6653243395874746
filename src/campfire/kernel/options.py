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

from campfire.i18n import N_
from campfire.kernel.errors import OptionError, Refusal


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
        raise OptionError(Refusal(N_("options must be an object of name: value")))
    try:
        return model.model_validate(dict(raw or {}))
    except ValidationError as error:
        first = error.errors()[0]
        # the option's own name, even an empty one; "options" only for the whole object
        name = ".".join(str(part) for part in first["loc"]) if first["loc"] else "options"
        if first["type"] == "extra_forbidden":
            known = ", ".join(model.model_fields)
            raise OptionError(
                Refusal(
                    N_("unknown option {name} (options: {options})"), name=repr(name), options=known
                )
            ) from None
        raise OptionError(
            Refusal(
                N_("option {name}: {reason}, got {value}"),
                name=repr(name),
                reason=_reason(first),
                value=repr(first.get("input")),
            )
        ) from None


#: pydantic's reasons for a refused value, as the catalogue says them (others stay as pydantic
#: says them, in English)
_REASONS = {
    "int_type": N_("input should be a valid integer"),
    "bool_type": N_("input should be a valid boolean"),
    "string_type": N_("input should be a valid string"),
    "greater_than_equal": N_("input should be greater than or equal to {ge}"),
    "less_than_equal": N_("input should be less than or equal to {le}"),
    "greater_than": N_("input should be greater than {gt}"),
    "less_than": N_("input should be less than {lt}"),
}


def _reason(error: Any) -> str:
    template = _REASONS.get(error["type"])
    context = error.get("ctx") or {}
    if template is not None:
        try:
            return Refusal(template, **context)
        except (KeyError, IndexError):
            pass
    if error["type"] == "value_error" and isinstance(context.get("error"), ValueError):
        cause = context["error"]
        if cause.args and isinstance(cause.args[0], Refusal):  # a game's own check
            return Refusal(N_("value error, {reason}"), reason=cause.args[0])
    message: str = error["msg"]
    return message[0].lower() + message[1:]


def parse_option_value(text: str) -> Any:
    """A command-line option value: JSON when it parses (3, true, null), else the text."""
    import json

    try:
        return json.loads(text)
    except ValueError:
        return text
