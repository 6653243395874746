"""What one seat may know in Pow Wow (RULINGS P12)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from campfire.games.powwow.actions import Action, to_json
from campfire.games.powwow.options import PowwowOptions


class RoundResult(NamedTuple):
    """A finished round, all of it public once the dispute revealed the feathers."""

    first_player: int
    worn: tuple[tuple[str, ...], ...]
    turned_over: str | None
    total: int
    guess: int
    owner: int
    disputer: int
    loser: int

    def to_json(self) -> dict[str, Any]:
        return {
            "first_player": self.first_player,
            "worn": [list(w) for w in self.worn],
            "turned_over": self.turned_over,
            "total": self.total,
            "guess": self.guess,
            "owner": self.owner,
            "disputer": self.disputer,
            "loser": self.loser,
        }


@dataclass(slots=True)
class PowwowView:
    """The table as `seat` sees it; `seat` None is a spectator, who sees only what is public.

    `feathers[s]` lists the feathers seat s wears, each one None where this seat cannot see it
    (its own, or every worn feather for a spectator). The stack's order is never here.
    Each call of `state.view` makes a fresh view (not frozen: freezing doubled the cost of the
    call learners make at every step), so changing one changes nothing in the game.
    """

    seat: int | None
    players: int
    options: PowwowOptions
    round: int
    first_player: int
    to_move: int | None
    direction: int  # 1 clockwise, -1 counter-clockwise
    feathers: tuple[tuple[str | None, ...], ...]
    buzzards: tuple[int, ...]
    out: tuple[int, ...]
    tomahawks: tuple[bool, ...]  # ready to use, by seat
    guess: int | None
    owner: int | None
    agreed: bool  # the owner got the standing guess by agreeing
    turns: tuple[tuple[int, Action], ...]  # this round, in order
    used: tuple[str, ...]
    stack_size: int
    rounds: tuple[RoundResult, ...]
    terminal: bool
    winners: tuple[int, ...]

    def is_active(self, seat: int) -> bool:
        return seat not in self.out

    @property
    def active(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if s not in self.out)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "powwow",
            "seat": self.seat,
            "players": self.players,
            "options": self.options.model_dump(),
            "round": self.round,
            "first_player": self.first_player,
            "to_move": self.to_move,
            "direction": self.direction,
            "feathers": [list(f) for f in self.feathers],
            "buzzards": list(self.buzzards),
            "out": list(self.out),
            "tomahawks": list(self.tomahawks),
            "guess": self.guess,
            "owner": self.owner,
            "agreed": self.agreed,
            "turns": [{"player": s, **to_json(a)} for s, a in self.turns],
            "used": list(self.used),
            "stack_size": self.stack_size,
            "rounds": [r.to_json() for r in self.rounds],
            "terminal": self.terminal,
            "winners": list(self.winners),
        }
