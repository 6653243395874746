"""What one seat may know in Waka Tanka (RULINGS W6)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar, cast

from campfire.games.wakatanka.options import WakatankaOptions


@dataclass(frozen=True, slots=True)
class Slot:
    """One face-down card on a tile: who placed it, and the card if the viewer placed it."""

    placer: int
    card: str | None

    def to_json(self) -> dict[str, Any]:
        return {"placer": self.placer, "card": self.card}


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn as everyone saw it (a played card stays face down: see `Slot` and `Reveal`)."""

    seat: int
    action: str  # play, call, spell or accept
    tile: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.seat, "action": self.action}
        if self.tile is not None:
            out["tile"] = self.tile
        return out


class Reveal(NamedTuple):
    """A stack turned face up by a call or a spell, and where its cards went (public).

    `cards` are bottom first, each with who placed it. `taker` is None when a successful spell
    sent the cards out of the game. (A named tuple: one is made at every call and spell.)
    """

    seat: int  # who called or cast
    action: str  # call or spell
    tile: str
    cards: tuple[tuple[int, str], ...]
    success: bool  # call: the bluff was exposed; spell: at least two of the tile's animal
    taker: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.seat,
            "action": self.action,
            "tile": self.tile,
            "cards": [{"placer": p, "card": c} for p, c in self.cards],
            "success": self.success,
            "taker": self.taker,
        }


@dataclass(slots=True)
class WakatankaView:
    """The table as `seat` sees it; `seat` None is a spectator (no hand).

    Each call of `state.view` makes a fresh view (not frozen, for speed, as in Pow Wow), so
    changing one changes nothing in the game.
    """

    seat: int | None
    players: int
    options: WakatankaOptions
    to_move: int | None
    marker: str | None
    hand: tuple[str, ...] | None  # sorted; None for a spectator
    hand_sizes: tuple[int, ...]
    tokens: tuple[int, ...]
    stacks: Mapping[str, tuple[Slot, ...]]  # bottom first
    removed: tuple[str, ...]  # sorted
    turns: tuple[Turn, ...]
    reveals: tuple[Reveal, ...]
    last_play: tuple[int, str] | None  # (seat, tile) when the previous turn was a play
    last_card: bool  # that play emptied its player's hand: call or accept now
    terminal: bool
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The view for JSON. Its turn and reveal entries are shared between calls (read them,
        do not change them): they are the whole game so far, in every seat's every update."""
        return {
            "game": "wakatanka",
            "seat": self.seat,
            "players": self.players,
            "options": _options_json(self.options),
            "to_move": self.to_move,
            "marker": self.marker,
            "hand": None if self.hand is None else list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "tokens": list(self.tokens),
            "stacks": {t: [s.to_json() for s in slots] for t, slots in self.stacks.items()},
            "removed": list(self.removed),
            "turns": _json_list(self.turns),
            "reveals": _json_list(self.reveals),
            "last_play": None if self.last_play is None else list(self.last_play),
            "last_card": self.last_card,
            "terminal": self.terminal,
            "winners": list(self.winners),
        }


#: JSON of turn records by identity: the state shares each `Turn` and `Reveal` with every view
#: and clone, so each is turned into JSON once, not once per seat and move (profiled: that was a
#: fifth of a server's time late in a game). The record is kept with its JSON, so an id is never
#: reused while it is in here; the whole memo is dropped when it grows too big.
_JSON: dict[int, tuple[Turn | Reveal, dict[str, Any]]] = {}
_JSON_LIMIT = 1 << 16


def _json_of(record: Turn | Reveal) -> dict[str, Any]:
    known = _JSON.get(id(record))
    if known is not None and known[0] is record:
        return known[1]
    out = record.to_json()
    if len(_JSON) >= _JSON_LIMIT:
        _JSON.clear()
    _JSON[id(record)] = (record, out)
    return out


#: JSON made once per object and found again by the object's identity (kept with the object,
#: so that an id is not reused while it is in here; dropped whole when it grows too big): the
#: list of a whole tuple of turns or reveals (a state hands every view of one position the same
#: tuple, `WakatankaState._seen_turns`, so a server's update for each seat lists the game so far
#: once, not once per seat), and the options (frozen; one object serves every view of a game)
_LISTS: dict[int, tuple[object, Any]] = {}
_OPTIONS: dict[int, tuple[object, Any]] = {}
J = TypeVar("J")


def _once(memo: dict[int, tuple[object, Any]], obj: object, make: Callable[[], J]) -> J:
    known = memo.get(id(obj))
    if known is not None and known[0] is obj:
        return cast(J, known[1])
    out = make()
    if len(memo) >= _JSON_LIMIT:
        memo.clear()
    memo[id(obj)] = (obj, out)
    return out


def _json_list(records: tuple[Turn, ...] | tuple[Reveal, ...]) -> list[dict[str, Any]]:
    return _once(_LISTS, records, lambda: [_json_of(r) for r in records])


def _options_json(options: WakatankaOptions) -> dict[str, Any]:
    return _once(_OPTIONS, options, options.model_dump)
