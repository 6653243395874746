"""Waka Tanka's four actions, as records name them (RULINGS W4, W5)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campfire.games.wakatanka.cards import CARDS, TILES


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
        raise ValueError(f"{what} needs a {key!r}")
    value = data[key]
    if not isinstance(value, str) or value not in names:
        raise ValueError(f"{value!r} is not a {key} (one of: {', '.join(names)})")
    return value


def from_json(data: Mapping[str, Any]) -> Action:
    kind = data.get("action")
    allowed = {"play": {"tile", "card"}, "spell": {"tile"}, "call": set(), "accept": set()}
    if not isinstance(kind, str) or kind not in allowed:
        raise ValueError(f"unknown action {kind!r} (Waka Tanka actions: play, call, spell, accept)")
    extra = set(data) - {"action"} - allowed[kind]
    if extra:
        raise ValueError(f"unexpected key {sorted(extra)[0]!r} in {kind!r}")
    if kind == "play":
        return Play(_name(data, "tile", TILES, "a play"), _name(data, "card", CARDS, "a play"))
    if kind == "spell":
        return Spell(_name(data, "tile", TILES, "a spell"))
    return CALL if kind == "call" else ACCEPT


def to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Play):
        return {"action": "play", "tile": action.tile, "card": action.card}
    if isinstance(action, Spell):
        return {"action": "spell", "tile": action.tile}
    return {"action": type(action).__name__.lower()}
