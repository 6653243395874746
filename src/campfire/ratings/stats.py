"""Per-seat statistics of one game, read from its record's events (what a profile adds up).

Pow Wow, for each seat:
- `disputes_won` / `disputes_lost`: rounds settled by a dispute in which the seat was the
  disputer or the owner of the disputed guess, and the other one / the seat took the buzzard;
- `guesses`: guesses the seat made; `guesses_disputed`: disputes of a guess the seat owned
  (by guessing or agreeing); `guesses_held`: of those, the ones the total reached.
Waka Tanka, for each seat:
- `bluffs_played`: cards placed that were not the animal declared (a mouse always is one);
- `bluffs_caught`: the seat's plays that a call exposed as a bluff;
- `calls` / `calls_right`: the seat's calls, and those that exposed a bluff.
"""

from __future__ import annotations

from typing import Any

from campfire.kernel.records import Record

STAT_KEYS: dict[str, tuple[str, ...]] = {
    "powwow": ("disputes_won", "disputes_lost", "guesses", "guesses_disputed", "guesses_held"),
    "wakatanka": ("bluffs_played", "bluffs_caught", "calls", "calls_right"),
}


def game_stats(record: Record) -> list[dict[str, int]]:
    """One dictionary of counts per seat (the record must replay)."""
    keys = STAT_KEYS.get(record.game)
    if keys is None:
        raise ValueError(f"no statistics are defined for {record.game!r}")
    seats = [dict.fromkeys(keys, 0) for _ in range(record.players)]
    for raw, events in record.steps():
        played = record.game == "wakatanka" and raw.get("action") == "play"
        if played and raw.get("card") != raw.get("tile"):
            seats[raw["player"]]["bluffs_played"] += 1
        for event in events:
            _count(record.game, event.kind, event.data, seats)
    return seats


def _count(game: str, kind: str, data: Any, seats: list[dict[str, int]]) -> None:
    if game == "powwow":
        if kind == "guess":
            seats[data["seat"]]["guesses"] += 1
        elif kind == "total":
            owner, disputer, loser = data["owner"], data["disputer"], data["loser"]
            winner = owner if loser == disputer else disputer
            seats[winner]["disputes_won"] += 1
            seats[loser]["disputes_lost"] += 1
            seats[owner]["guesses_disputed"] += 1
            if loser != owner:
                seats[owner]["guesses_held"] += 1
    elif kind == "call":
        seats[data["seat"]]["calls"] += 1
        if data["bluff"]:
            seats[data["seat"]]["calls_right"] += 1
            seats[data["player"]]["bluffs_caught"] += 1


def add_up(rows: list[dict[str, int]]) -> dict[str, int]:
    """The sum of several games' counts (a profile's totals)."""
    total: dict[str, int] = {}
    for row in rows:
        for key, value in row.items():
            total[key] = total.get(key, 0) + int(value)
    return total
