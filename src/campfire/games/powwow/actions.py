"""Pow Wow's four actions, as records name them (RULINGS P5, P6, P11)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campfire.games.powwow.feathers import GUESS_MAX, GUESS_MIN
from campfire.i18n import N_
from campfire.kernel.errors import Refusal


@dataclass(frozen=True, slots=True)
class Guess:
    """Announce `value`; with a tomahawk, also give `extra_feather_to` an extra feather."""

    value: int
    extra_feather_to: int | None = None


@dataclass(frozen=True, slots=True)
class Dispute:
    """Challenge the standing guess: the round is counted."""


@dataclass(frozen=True, slots=True)
class Agree:
    """Tomahawk: take over the standing guess unchanged."""


@dataclass(frozen=True, slots=True)
class Reverse:
    """Tomahawk: flip the direction instead of guessing."""


Action = Guess | Dispute | Agree | Reverse

DISPUTE = Dispute()
AGREE = Agree()
REVERSE = Reverse()

#: every plain guess, indexed by value - GUESS_MIN; legal guesses are a slice of it
GUESSES: tuple[Guess, ...] = tuple(Guess(v) for v in range(GUESS_MIN, GUESS_MAX + 1))
_EXTRA: dict[int, tuple[Guess, ...]] = {}


def extra_guesses(target: int) -> tuple[Guess, ...]:
    """Every guess that gives `target` an extra feather, indexed like `GUESSES`."""
    table = _EXTRA.get(target)
    if table is None:
        table = _EXTRA[target] = tuple(Guess(v, target) for v in range(GUESS_MIN, GUESS_MAX + 1))
    return table


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def from_json(data: Mapping[str, Any]) -> Action:
    kind = data.get("action")
    keys = set(data) - {"action"}
    if kind == "guess":
        if "value" not in data:
            raise ValueError(Refusal(N_("a guess needs a 'value'")))
        unknown = keys - {"value", "extra_feather_to"}
        if unknown:
            raise ValueError(
                Refusal(N_("unexpected key {key} in a guess"), key=repr(sorted(unknown)[0]))
            )
        value = data["value"]
        if not _whole(value):
            raise ValueError(
                Refusal(N_("a guess is a whole number, not {value}"), value=repr(value))
            )
        target = data.get("extra_feather_to")
        if target is not None and not _whole(target):
            raise ValueError(
                Refusal(
                    N_("'extra_feather_to' must be a seat number, not {value}"), value=repr(target)
                )
            )
        return Guess(value, target)
    simple: dict[str, Action] = {"dispute": DISPUTE, "agree": AGREE, "reverse": REVERSE}
    if isinstance(kind, str) and kind in simple:
        if keys:
            raise ValueError(
                Refusal(
                    N_("unexpected key {key} in {action}"),
                    key=repr(sorted(keys)[0]),
                    action=repr(kind),
                )
            )
        return simple[kind]
    raise ValueError(
        Refusal(
            N_("unknown action {action} ({game} actions: {actions})"),
            action=repr(kind),
            game="Pow Wow",
            actions="guess, dispute, agree, reverse",
        )
    )


def to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Guess):
        out: dict[str, Any] = {"action": "guess", "value": action.value}
        if action.extra_feather_to is not None:
            out["extra_feather_to"] = action.extra_feather_to
        return out
    return {"action": type(action).__name__.lower()}
