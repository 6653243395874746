"""Waka Tanka at the browser table: compact controls, the circle of tiles, static files.

See `campfire.server.tables.webgame` for what each function is for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from campfire.games.wakatanka.actions import Accept, Action, Call, Play, Spell
from campfire.games.wakatanka.cards import CARDS, TILE_INDEX, TILES, neighbours
from campfire.games.wakatanka.options import WakatankaOptions
from campfire.games.wakatanka.view import WakatankaView

OPTIONS = WakatankaOptions


def controls(view: WakatankaView, legal: Sequence[Action]) -> dict[str, Any]:
    """Tiles and cards a play may use, the tiles a spell may target, call and accept."""
    tiles: set[str] = set()
    cards: set[str] = set()
    spells: set[str] = set()
    flags = {"call": False, "accept": False}
    for action in legal:
        if isinstance(action, Play):
            tiles.add(action.tile)
            cards.add(action.card)
        elif isinstance(action, Spell):
            spells.add(action.tile)
        elif isinstance(action, Call):
            flags["call"] = True
        elif isinstance(action, Accept):
            flags["accept"] = True
    return {
        "play": {"tiles": _ordered(tiles, TILES), "cards": _ordered(cards, CARDS)},
        "spell": _ordered(spells, TILES),
        **flags,
    }


def expand(described: Mapping[str, Any]) -> list[dict[str, Any]]:
    play = described["play"]
    out: list[dict[str, Any]] = [
        {"action": "play", "tile": t, "card": c} for t in play["tiles"] for c in play["cards"]
    ]
    out.extend({"action": "spell", "tile": t} for t in described["spell"])
    out.extend({"action": kind} for kind in ("call", "accept") if described[kind])
    return out


def extras(view: WakatankaView) -> dict[str, Any]:
    near = [] if view.marker is None else [TILES[t] for t in neighbours(TILE_INDEX[view.marker])]
    return {"tiles": list(TILES), "cards": list(CARDS), "neighbours": near}


def pause_factor(kinds: set[str]) -> float:
    """Bots wait longer after a reveal, while the page turns the cards over."""
    return 3.0 if kinds & {"call", "spell"} else 1.0


def _ordered(names: set[str], order: tuple[str, ...]) -> list[str]:
    return [n for n in order if n in names]
