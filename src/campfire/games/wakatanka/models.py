"""Per-seat models of the other players, read off the public record of a seat view.

Everything here comes from `view.turns` and `view.reveals`, which every seat sees alike, so a
bot that uses it stays honest by construction. For each seat it keeps how often it called when it
could (after the previous player's play), how often those calls exposed a bluff, how often it
cast a spell, and infers its call rate as a Beta posterior whose prior is medium's own rate: one
always-caller at a table of medium players stands out after a few turns, seat by seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from campfire.games.wakatanka.tracking import HONESTY
from campfire.games.wakatanka.view import WakatankaView

#: medium's share of calls among the chances it had (measured over medium tables) and how many
#: chances the prior is worth
MEDIUM_CALL_RATE = 0.32
PRIOR_CHANCES = 8.0


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """What one seat has shown."""

    chances: int = 0  # turns right after the previous player's play
    calls: int = 0
    exposed: int = 0  # calls that exposed a bluff
    spells: int = 0
    turns: int = 0

    @property
    def call_rate(self) -> float:
        """The posterior mean of this seat's call rate (Beta prior centred on medium's)."""
        prior = PRIOR_CHANCES * MEDIUM_CALL_RATE
        return (prior + self.calls) / (PRIOR_CHANCES + self.chances)

    def to_json(self) -> dict[str, float | int]:
        return {
            "chances": self.chances,
            "calls": self.calls,
            "exposed": self.exposed,
            "spells": self.spells,
            "turns": self.turns,
            "call_rate": round(self.call_rate, 4),
        }


def seat_records(view: WakatankaView) -> tuple[SeatRecord, ...]:
    """Every seat's record, from the public turns and reveals."""
    n = view.players
    chances = [0] * n
    calls = [0] * n
    spells = [0] * n
    turns = [0] * n
    previous = None
    for turn in view.turns:
        turns[turn.seat] += 1
        if previous is not None and previous.action == "play":
            chances[turn.seat] += 1
            calls[turn.seat] += turn.action == "call"
        spells[turn.seat] += turn.action == "spell"
        previous = turn
    exposed = [0] * n
    for reveal in view.reveals:
        if reveal.action == "call" and reveal.success:
            exposed[reveal.seat] += 1
    return tuple(
        SeatRecord(chances[s], calls[s], exposed[s], spells[s], turns[s]) for s in range(n)
    )


#: how many revealed cards the expert's prior honesty is worth (card tracking's own prior is 4:
#: a player who plays any card is read as one after a few reveals, not a dozen)
HONESTY_PRIOR = 1.0


def seat_honesty(view: WakatankaView, prior: float = HONESTY_PRIOR) -> tuple[float, ...]:
    """Each seat's honesty as its revealed cards show it: the share of its cards that were the
    animal of the tile they lay on, from a prior of `HONESTY` worth `prior` cards.

    Card tracking starts every player at 85% honest and needs many reveals to move; a player
    who plays any card at all shows perhaps one true card in five, and the expert should call
    them as such after a handful of reveals.
    """
    shown = [0] * view.players
    true = [0] * view.players
    for reveal in view.reveals:
        for placer, name in reveal.cards:
            shown[placer] += 1
            true[placer] += name == reveal.tile
    return tuple((prior * HONESTY + true[s]) / (prior + shown[s]) for s in range(view.players))


def called_chance(medium_guess: float, rate: float) -> float:
    """P(a seat calls a play), from medium's guess for a medium player and the seat's own rate.

    A seat that calls as often as medium keeps medium's guess; a looser caller moves it towards
    always, a tighter one towards never, in proportion to how far its rate sits from medium's.
    """
    if rate >= MEDIUM_CALL_RATE:
        loose = (rate - MEDIUM_CALL_RATE) / (1 - MEDIUM_CALL_RATE)
        return medium_guess + (1 - medium_guess) * loose
    return medium_guess * rate / MEDIUM_CALL_RATE


__all__ = [
    "HONESTY_PRIOR",
    "MEDIUM_CALL_RATE",
    "SeatRecord",
    "called_chance",
    "seat_honesty",
    "seat_records",
]
