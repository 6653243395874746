"""What every part of the server refuses with: an HTTP status and a reason a person can act on.

A reason is a `Refusal` (kernel/errors.py): its English message template and the values that
fill it. The template is the refusal's stable key on the wire (`key`, with `args`, beside the
`reason` or `error` told in the reader's language); each reader is told the reason in their own
language (`campfire.i18n.refusal_text`). A reason that is plain text (a message of a library,
such as a body's validation) has no key and is told as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from campfire.i18n import refusal_text, translator
from campfire.kernel.errors import Refusal

M = TypeVar("M", bound=Mapping[str, object])


class Refused(Exception):
    """A request the table turns down: an HTTP status and a reason a person can act on."""

    def __init__(self, status: int, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        #: seconds until the same request may succeed, when known (a 429's `Retry-After`)
        self.retry_after = retry_after


class Counted(Refusal):
    """A refusal that counts something: its English singular is the key, `plural` the other
    form, and the value `n` picks the form in each language (`ngettext`)."""

    plural: str


def ngettext(singular: str, plural: str, n: int, **values: object) -> Counted:
    """A counted refusal, marked for extraction as gettext's `ngettext` is (it is told in each
    reader's language later, by `campfire.i18n.refusal_text`)."""
    said = cast(Counted, Counted.__new__(Counted, singular if n == 1 else plural, n=n, **values))
    said.template = singular
    said.plural = plural
    return said


def said(error: BaseException) -> str:
    """What an exception of the rules said, keeping its template when it has one (`str()` of
    a `Refusal` would keep only the English)."""
    first = error.args[0] if error.args else None
    return first if isinstance(first, str) else str(error)


def meaning(reason: object) -> tuple[str | None, dict[str, Any] | None]:
    """A reason's stable key (its English template) and its arguments as JSON values (a
    reason inside another is its own `{"key", "args"}`); (None, None) for plain text."""
    template = getattr(reason, "template", None)
    if not isinstance(template, str):
        return None, None
    args: dict[str, Any] = {}
    for name, value in dict(getattr(reason, "values", {})).items():
        inner, inner_args = meaning(value)
        if inner is not None:
            args[name] = {"key": inner, "args": inner_args}
        elif value is None or isinstance(value, bool | int | float | str):
            args[name] = value if not isinstance(value, str) else str(value)
        else:
            args[name] = str(value)
    plural = getattr(reason, "plural", None)
    if isinstance(plural, str):
        args["plural"] = plural
    return template, args


def from_meaning(key: str, args: dict[str, Any]) -> Refusal:
    """The reason `meaning` gave as key and arguments, whole again (a reason inside it, a
    counted one), as another process sent it; KeyError, IndexError or ValueError when the
    arguments do not fill the key."""
    values = {
        name: from_meaning(value["key"], value.get("args") or {})
        if isinstance(value, dict) and isinstance(value.get("key"), str)
        else value
        for name, value in args.items()
        if name != "plural"
    }
    plural, n = args.get("plural"), values.get("n")
    if isinstance(plural, str) and isinstance(n, int):
        return ngettext(key, plural, n, **{k: v for k, v in values.items() if k != "n"})
    return Refusal(key, **values)


def told(message: M, reason: object, lang: str, field: str = "reason") -> M:
    """`message` (a wire message) with `reason` told in `lang` as its `field` and, when the
    reason has one, its stable `key` and `args` beside it."""
    out = cast(dict[str, Any], message)
    out[field] = refusal_text(reason, translator(lang))
    key, args = meaning(reason)
    if key is not None:
        out["key"] = key
        out["args"] = args
    return message


__all__ = ["Counted", "Refusal", "Refused", "from_meaning", "meaning", "ngettext", "said", "told"]
