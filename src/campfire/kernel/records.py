"""Game records, format 1: one JSON document that replays a game exactly.

Every chance outcome is written in the record, so replaying never touches a random generator.
`Record.of` saves any state (finished or not); `Record.replay` rebuilds it, refusing the first
entry that breaks the rules with a `RecordError` naming that entry.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from campfire.i18n import N_
from campfire.kernel.chance import ChanceOutcome, Draw, Pick, Shuffle, Shuffled
from campfire.kernel.errors import CampfireError, IllegalAction, OptionError, RecordError, Refusal
from campfire.kernel.events import Event
from campfire.kernel.state import Entry, Game, PlayerMove, State

FORMAT = 1
_HEADER_KEYS = {"format", "game", "players", "options", "seats", "moves"}
#: who sat at a seat: `{"name": str | None, "bot": level | None}` (the optional `seats` header)
SeatEntry = dict[str, str | None]


@dataclass
class Record:
    """A format-1 record: header plus `moves`, each entry as it stands in the JSON document."""

    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    moves: list[Any] = field(default_factory=list)
    #: who sat where and the bot level where a bot played, so that a game resumes against the
    #: same bots; replay ignores it (None: the record does not say)
    seats: list[SeatEntry] | None = None

    # --- reading ---------------------------------------------------------------------------
    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Check the document's shape (not yet its moves) and wrap it."""
        if not isinstance(data, dict):
            raise RecordError(Refusal(N_("a record must be a JSON object")))
        unknown = sorted(set(data) - _HEADER_KEYS)
        if unknown:
            raise RecordError(Refusal(N_("unknown key {key} in the record"), key=repr(unknown[0])))
        if "format" not in data:
            raise RecordError(Refusal(N_("the record has no 'format' (expected 1)")))
        if not _is_int(data["format"]) or data["format"] != FORMAT:  # not true, not 1.0
            raise RecordError(
                Refusal(N_("unsupported format {format} (expected 1)"), format=repr(data["format"]))
            )
        name = data.get("game")
        if not isinstance(name, str):
            raise RecordError(Refusal(N_("'game' must be the name of a game")))
        from campfire.kernel.registry import get_game

        try:
            game = get_game(name)
        except KeyError:
            raise RecordError(
                Refusal(N_("unknown game {name} (games: {games})"), name=repr(name), games=_games())
            ) from None
        players = data.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            raise RecordError(Refusal(N_("'players' must be a whole number")))
        if not game.min_players <= players <= game.max_players:
            raise RecordError(
                Refusal(
                    N_("{game} takes {least} to {most} players, not {players}"),
                    game=game.title,
                    least=game.min_players,
                    most=game.max_players,
                    players=players,
                )
            )
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError(Refusal(N_("'options' must be an object")))
        moves = data.get("moves")
        if not isinstance(moves, list):
            raise RecordError(Refusal(N_("'moves' must be a list")))
        seats = _seats(data["seats"], players) if "seats" in data else None
        return cls(name, players, dict(options), list(moves), seats)

    @classmethod
    def loads(cls, text: str | bytes) -> Record:
        try:
            data = json.loads(text)
        except ValueError as error:
            raise RecordError(Refusal(N_("not valid JSON: {reason}"), reason=str(error))) from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: str | PathLike[str]) -> Record:
        try:
            text = Path(path).read_bytes()
        except OSError as error:
            raise RecordError(
                Refusal(N_("cannot read {file}: {reason}"), file=str(path), reason=error.strerror)
            ) from None
        return cls.loads(text)

    # --- writing ---------------------------------------------------------------------------
    @classmethod
    def of(cls, state: State[Any, Any], seats: list[SeatEntry] | None = None) -> Record:
        """The record of `state` so far; a draw-mode history is folded into whole shuffles.
        `seats` (one `{"name", "bot"}` per seat) says who played, if it is known."""
        game = state.game
        raw = state.options.model_dump()
        moves = [entry_to_json(game, entry) for entry in _fold_draws(state.history)]
        if seats is not None:
            seats = _seats(seats, state.players)
        return cls(game.name, state.players, raw, moves, seats)

    def to_json(self) -> dict[str, Any]:
        header: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "players": self.players,
            "options": self.options,
        }
        if self.seats is not None:
            header["seats"] = self.seats
        return {**header, "moves": self.moves}

    def dumps(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_json(), indent=indent)

    def save(self, path: str | PathLike[str]) -> None:
        Path(path).write_text(self.dumps() + "\n")

    # --- replaying -------------------------------------------------------------------------
    def new_state(self) -> State[Any, Any]:
        from campfire.kernel.registry import get_game

        try:
            state: State[Any, Any] = get_game(self.game).new_state(self.players, self.options)
        except (OptionError, KeyError) as error:
            raise RecordError(reason_of(error)) from None
        return state

    def replay(self, upto: int | None = None) -> State[Any, Any]:
        """The state after the first `upto` entries (all by default)."""
        state = self.new_state()
        for index, raw in enumerate(self.moves[:upto]):
            try:
                apply_entry(state, raw)
            except (ValueError, IllegalAction) as error:
                raise RecordError(reason_of(error), index, raw) from None
        return state

    def steps(self) -> list[tuple[Any, list[Event]]]:
        """Each entry with the events it caused, for narration (the record must be valid)."""
        state = self.new_state()
        out = []
        for index, raw in enumerate(self.moves):
            try:
                events = apply_entry(state, raw)
            except (ValueError, IllegalAction) as error:
                raise RecordError(reason_of(error), index, raw) from None
            out.append((raw, events))
        return out


def _seats(seats: Any, players: int) -> list[SeatEntry]:
    """The `seats` header checked for its shape only: one `{"name", "bot"}` object per seat,
    each a string or null (which levels exist is the reader's business)."""
    if not isinstance(seats, list):
        raise RecordError(Refusal(N_("'seats' must be a list with one object per seat")))
    if len(seats) != players:
        raise RecordError(
            Refusal(
                N_("'seats' lists {count} seats for {players} players"),
                count=len(seats),
                players=players,
            )
        )
    out: list[SeatEntry] = []
    for index, seat in enumerate(seats):
        if not isinstance(seat, dict) or set(seat) != {"name", "bot"}:
            raise RecordError(
                Refusal(
                    N_("'seats' entry {index} must be an object with exactly 'name' and 'bot'"),
                    index=index,
                )
            )
        for key in ("name", "bot"):
            if seat[key] is not None and not isinstance(seat[key], str):
                raise RecordError(
                    Refusal(
                        N_("'seats' entry {index}: {key} must be a string or null, not {value}"),
                        index=index,
                        key=repr(key),
                        value=repr(seat[key]),
                    )
                )
        out.append({"name": seat["name"], "bot": seat["bot"]})
    return out


def reason_of(error: BaseException) -> str:
    """An error's reason as it was raised: a `Refusal` keeps its template and values."""
    if error.args and isinstance(error.args[0], str):
        return error.args[0]
    return str(error)


def _games() -> str:
    from campfire.kernel.registry import games

    return ", ".join(games())


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def entry_from_json(game: Game[Any], raw: Any) -> PlayerMove | ChanceOutcome:
    """One `moves` entry; ValueError says what is wrong with it."""
    if not isinstance(raw, dict):
        raise ValueError(Refusal(N_("an entry must be a JSON object")))
    if "chance" in raw:
        kind = raw["chance"]
        if kind == "shuffle":
            _exact_keys(raw, {"chance", "order"})
            order = raw["order"]
            if not isinstance(order, list) or not all(isinstance(x, str) for x in order):
                raise ValueError(Refusal(N_("'order' must be a list of names")))
            return Shuffle(tuple(order))
        if isinstance(kind, str) and kind in game.pick_fields:
            key = game.pick_fields[kind]
            _exact_keys(raw, {"chance", key})
            value = raw[key]
            if not isinstance(value, str):
                raise ValueError(Refusal(N_("{key} must be a name"), key=repr(key)))
            return Pick(kind, value)
        kinds = ", ".join(["shuffle", *game.pick_fields])
        raise ValueError(
            Refusal(N_("unknown chance kind {kind} (kinds: {kinds})"), kind=repr(kind), kinds=kinds)
        )
    if "player" in raw:
        seat = raw["player"]
        if not _is_int(seat):
            raise ValueError(Refusal(N_("'player' must be a seat number")))
        action = game.action_from_json({k: v for k, v in raw.items() if k != "player"})
        return PlayerMove(seat, action)
    raise ValueError(Refusal(N_("an entry needs 'player' and 'action', or 'chance'")))


def _exact_keys(raw: Mapping[str, Any], keys: set[str]) -> None:
    missing = sorted(keys - set(raw))
    if missing:
        raise ValueError(Refusal(N_("missing {key}"), key=repr(missing[0])))
    extra = sorted(set(raw) - keys)
    if extra:
        raise ValueError(Refusal(N_("unexpected key {key}"), key=repr(extra[0])))


def apply_entry(state: State[Any, Any], raw: Any) -> list[Event]:
    """Apply one `moves` entry to `state`; ValueError or IllegalAction says why not."""
    move = entry_from_json(state.game, raw)
    if isinstance(move, PlayerMove):
        if not 0 <= move.seat < state.players:
            raise ValueError(
                Refusal(
                    N_("there is no seat {seat} in a {players}-player game"),
                    seat=move.seat,
                    players=state.players,
                )
            )
        return state.apply(move.action, seat=move.seat)
    return state.apply(move)


def entry_to_json(game: Game[Any], entry: PlayerMove | ChanceOutcome) -> dict[str, Any]:
    if isinstance(entry, PlayerMove):
        return {"player": entry.seat, **game.action_to_json(entry.action)}
    if isinstance(entry, Shuffle):
        return {"chance": "shuffle", "order": list(entry.order)}
    if isinstance(entry, Pick):
        return {"chance": entry.kind, game.pick_fields[entry.kind]: entry.value}
    raise CampfireError(f"a lone draw cannot be written to a record: {entry!r}")


def _fold_draws(history: list[Entry]) -> list[PlayerMove | ChanceOutcome]:
    """Replace each draw-mode `Shuffled` note and the draws from it by one whole `Shuffle`:
    the items in the order they were drawn, then the undrawn rest in sorted order (nobody ever
    saw the rest, so any order of it replays the same game)."""
    out: list[PlayerMove | ChanceOutcome] = []
    slot = -1
    items: Counter[str] = Counter()
    drawn: list[str] = []

    def close() -> None:
        if slot >= 0:
            rest = sorted((items - Counter(drawn)).elements())
            out[slot] = Shuffle((*drawn, *rest))

    for entry in history:
        if isinstance(entry, Shuffled):
            close()
            out.append(Shuffle(()))
            slot, items, drawn = len(out) - 1, Counter(entry.items), []
        elif isinstance(entry, Draw):
            drawn.append(entry.item)
        else:
            out.append(entry)
    close()
    return out
