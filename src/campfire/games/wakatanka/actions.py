"""Waka Tanka's four actions, as records name them (RULINGS W4, W5)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campfire.games.wakatanka.cards import CARDS, TILES
from campfire.i18n import N_
from campfire.kernel.errors import Refusal


@dataclass(frozen=True, slots=True)
class Play:
    """Move the marker to `tile` and place `card` face down on it, declaring the tile's animal."""

    tile: str
    card: str


@dataclass(frozen=True, slots=True)
class Call:
    """Call the bluff of the card just played."""


@dataclass(frozen=True, slots=True)
class Spell:
    """Reveal `tile`'s stack: two of its animal win a token, otherwise take the cards."""

    tile: str


@dataclass(frozen=True, slots=True)
class Accept:
    """Let a player who played their last card win."""


Action = Play | Call | Spell | Accept

CALL = Call()
ACCEPT = Accept()
#: PLAYS[tile index][card index]
PLAYS: tuple[tuple[Play, ...], ...] = tuple(tuple(Play(t, c) for c in CARDS) for t in TILES)
SPELLS: tuple[Spell, ...] = tuple(Spell(t) for t in TILES)


def _name(data: Mapping[str, Any], key: str, names: tuple[str, ...], what: str) -> str:
    if key not in data:
        raise ValueError(Refusal(what, key=repr(key)))
    value = data[key]
    if not isinstance(value, str) or value not in names:
        raise ValueError(
            Refusal(
                N_("{value} is not a {what} (one of: {names})"),
                value=repr(value),
                what=key,
                names=", ".join(names),
            )
        )
    return value


def from_json(data: Mapping[str, Any]) -> Action:
    kind = data.get("action")
    allowed = {"play": {"tile", "card"}, "spell": {"tile"}, "call": set(), "accept": set()}
    if not isinstance(kind, str) or kind not in allowed:
        raise ValueError(
            Refusal(
                N_("unknown action {action} ({game} actions: {actions})"),
                action=repr(kind),
                game="Waka Tanka",
                actions="play, call, spell, accept",
            )
        )
    extra = set(data) - {"action"} - allowed[kind]
    if extra:
        raise ValueError(
            Refusal(
                N_("unexpected key {key} in {action}"),
                key=repr(sorted(extra)[0]),
                action=repr(kind),
            )
        )
    if kind == "play":
        needs = N_("a play needs a {key}")
        return Play(_name(data, "tile", TILES, needs), _name(data, "card", CARDS, needs))
    if kind == "spell":
        return Spell(_name(data, "tile", TILES, N_("a spell needs a {key}")))
    return CALL if kind == "call" else ACCEPT


def to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Play):
        return {"action": "play", "tile": action.tile, "card": action.card}
    if isinstance(action, Spell):
        return {"action": "spell", "tile": action.tile}
    return {"action": type(action).__name__.lower()}
